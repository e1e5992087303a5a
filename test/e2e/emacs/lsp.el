;;; lsp.el --- Emacs + Eglot (batch) as an LSP client of dist/server.js  -*- lexical-binding: t -*-

;; Driven the way a user's Eglot works: major modes mapped in `eglot-server-programs', `eglot' to connect,
;; Flymake for diagnostics, `eglot-completion-at-point', `eglot-code-actions' +
;; `eglot--apply-workspace-edit', `eglot-shutdown'.  It only gathers what the editor saw and prints one
;; line `LWIR_REPORT <json>' on stdout; run.mjs decides what passes.  Every phase runs under
;; condition-case, so one failure is reported with its phase and the later phases still run.
;;
;; Input: the JSON plan in $LWIR_E2E_PLAN (written by run.mjs): node, server, root, budgetMs, shutdownMs,
;; docs = [{name, path, filetype}], and per-feature positions (LSP line + UTF-16 character).  Waits and
;; requests share one budget, so a silent server still leaves time to report before run.mjs's hard
;; timeout; the shutdown has its own.

(require 'package)
;; -Q skips Debian's site-start, so point package.el at Debian's elpa folder (elpa-eglot) by hand.
;; HOME is a temporary folder (run.mjs), so package.el writes nothing outside it.
(when (< emacs-major-version 29)
  (add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'eglot)
(require 'flymake)
(require 'json)
(require 'cl-lib)

(defvar lwir-t0 (float-time))
(defun lwir-ms () (* 1000.0 (- (float-time) lwir-t0)))

(defvar lwir-report (make-hash-table :test 'equal))
(defun lwir-put (key value) (puthash key value lwir-report))
(defvar lwir-errors nil)

(defvar lwir-deadline nil "When the budget for waits and requests runs out (float-time).")
(defun lwir-left () (max 0.1 (- lwir-deadline (float-time))))

(defmacro lwir-phase (name &rest body)
  "Run BODY; record an error under NAME instead of ending the run.
Return non-nil on success."
  (declare (indent 1))
  `(condition-case err
       ;; Eglot's connect and jsonrpc's requests get what is left of the budget.
       (let ((jsonrpc-default-request-timeout (lwir-left))
             (eglot-connect-timeout (lwir-left)))
         ,@body
         t)
     (error (push (list (cons 'phase ,name) (cons 'error (format "%S" err))) lwir-errors) nil)))

(defvar lwir--plan
  (let ((json-object-type 'alist) (json-array-type 'list) (json-key-type 'symbol))
    (json-read-from-string (or (getenv "LWIR_E2E_PLAN") (error "LWIR_E2E_PLAN is not set")))))
(defun lwir-plan (&rest keys)
  "The value at KEYS in the plan."
  (let ((v lwir--plan)) (dolist (k keys v) (setq v (alist-get k v)))))
(setq lwir-deadline (+ (float-time) (/ (lwir-plan 'budgetMs) 1000.0)))

(defun lwir-wait (pred &optional seconds)
  "Process events until PRED is non-nil; return its value.
Wait SECONDS, or what is left of the budget."
  (let ((deadline (if seconds (+ (float-time) seconds) lwir-deadline)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    v))

;;;; What arrives and what is sent

(defvar lwir-publishes nil "Raw publishDiagnostics params, newest first.")
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (eq method 'textDocument/publishDiagnostics)
                (push (list :uri (plist-get params :uri) :version (plist-get params :version)
                            :diagnostics (plist-get params :diagnostics) :at_ms (lwir-ms))
                      lwir-publishes))))

(defvar lwir-server-log nil "window/logMessage and window/showMessage params, newest first.")
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (memq method '(window/logMessage window/showMessage))
                (push (list :type (plist-get params :type) :message (plist-get params :message)) lwir-server-log))))

(defvar lwir-code-action-params nil "What `eglot-code-actions' sent.")
(advice-add 'jsonrpc-request :before
            (lambda (_conn method params &rest _)
              (when (eq method :textDocument/codeAction) (setq lwir-code-action-params params))))

;; Eglot 1.9's jsonrpc-shutdown deletes the process right after `exit' is sent.  Give the server the
;; chance to leave by itself first, so that a clean exit (status `exit', code 0) can be told from a kill.
(advice-add 'jsonrpc-shutdown :before
            (lambda (conn &rest _)
              (let ((proc (jsonrpc--process conn)))
                (lwir-wait (lambda () (not (process-live-p proc))) (/ (lwir-plan 'shutdownMs) 1000.0)))))

(defun lwir-wait-publish (uri &optional pred)
  "The newest publish for URI satisfying PRED, waiting for it."
  (lwir-wait (lambda ()
               (cl-find-if (lambda (p) (and (equal (plist-get p :uri) uri) (or (null pred) (funcall pred p))))
                           lwir-publishes))))

;;;; Positions: Emacs counts characters, LSP counts UTF-16 units

(defun lwir-lsp-position (pos)
  "POS as an LSP position (line, UTF-16 character).
Counted here rather than with Eglot's helper, so that Eglot's own
conversion is what gets checked."
  (save-excursion
    (goto-char pos)
    (list :line (1- (line-number-at-pos pos t))
          :character (/ (length (encode-coding-string
                                 (buffer-substring-no-properties (line-beginning-position) pos) 'utf-16le))
                        2))))

(defun lwir-shown ()
  "What Flymake shows in the current buffer.
Each with Eglot's copy of the LSP diagnostic's code."
  (flymake-start)
  (vconcat
   (mapcar (lambda (d)
             (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
               (list :range (list :start (lwir-lsp-position (flymake-diagnostic-beg d))
                                  :end (lwir-lsp-position (flymake-diagnostic-end d)))
                     :type (symbol-name (flymake-diagnostic-type d))
                     :text (flymake-diagnostic-text d)
                     :lsp_code (plist-get lsp :code)
                     :has_data (if (plist-get lsp :data) t :json-false))))
           (flymake-diagnostics))))

;;;; Modes and servers

;; Emacs 28 has no JSON or YAML major mode to hang Eglot on; these stand in for json-mode/yaml-mode and
;; send the languageIds those would.
(define-derived-mode lwir-yaml-mode prog-mode "LWIR/YAML" "YAML LWIR workflows (test).")
(define-derived-mode lwir-json-mode prog-mode "LWIR/JSON" "JSON LWIR workflows (test).")
(put 'lwir-yaml-mode 'eglot-language-id "yaml")
(put 'lwir-json-mode 'eglot-language-id "json")
(add-to-list 'auto-mode-alist '("\\.lwir\\.ya?ml\\'" . lwir-yaml-mode))
(add-to-list 'auto-mode-alist '("\\.lwir\\.json\\'" . lwir-json-mode))
;; Eglot 1.9 has one languageId per server, so each format gets its own server, as separate mode entries do.
(let ((contact (list (lwir-plan 'node) (lwir-plan 'server) "--stdio")))
  (add-to-list 'eglot-server-programs (cons 'lwir-yaml-mode contact))
  (add-to-list 'eglot-server-programs (cons 'lwir-json-mode contact)))
;; The workspace copy is the project (not the git checkout around it).
(setq project-find-functions (list (lambda (_dir) (cons 'transient (lwir-plan 'root)))))
(setq eglot-sync-connect t              ; `eglot' returns once initialize has answered
      eglot-autoshutdown nil            ; shut down explicitly below
      eglot-events-buffer-size 0)

(defvar lwir-buffers (make-hash-table :test 'equal))
(defvar lwir-servers nil)
(defvar lwir-docs (make-hash-table :test 'equal))
(defun lwir-buffer (name) (or (gethash name lwir-buffers) (error "no buffer for %s" name)))
(defun lwir-uri () (plist-get (eglot--TextDocumentIdentifier) :uri))
(defun lwir-point-at (spec)
  (eglot--lsp-position-to-point (list :line (alist-get 'line spec) :character (alist-get 'character spec))))

(defun lwir-completion (key spec)
  "Type SPEC's text, complete with point after it, then delete it.
The text goes in with `insert', so Eglot sends a didChange."
  (lwir-phase (format "completion %s" key)
    (with-current-buffer (lwir-buffer (alist-get 'doc spec))
      (let* ((text (alist-get 'insert spec))
             (at (lwir-point-at spec)))
        (goto-char at)
        (insert text)
        (let* ((capf (eglot-completion-at-point))
               ;; all-completions calls the server (a deferred request: Eglot flushes the change first)
               (cands (all-completions "" (nth 2 capf))))
          (lwir-put (format "completion_%s" key)
                    (list :position (eglot--pos-to-lsp-position (point))
                          :line_text (buffer-substring-no-properties (line-beginning-position) (line-end-position))
                          :candidates (vconcat (mapcar #'substring-no-properties cands))
                          :items (vconcat
                                  (mapcar (lambda (c)
                                            (let ((item (get-text-property 0 'eglot--lsp-item c)))
                                              (list :label (plist-get item :label)
                                                    :adds_needs (if (> (length (plist-get item :additionalTextEdits)) 0) t :json-false))))
                                          cands)))))
        (delete-region at (+ at (length text)))
        ;; In batch Emacs is never idle, so Eglot's idle timer would not send the change: send it as that timer does.
        (eglot--signal-textDocument/didChange)
        (let ((version eglot--versioned-identifier))
          (unless (lwir-wait-publish (lwir-uri) (lambda (p) (equal (plist-get p :version) version)))
            (error "no diagnostics for the version after the completion test")))))))

(defun lwir-request (name method position-spec)
  "A METHOD request at POSITION-SPEC of document NAME, straight to its server."
  (with-current-buffer (lwir-buffer name)
    (jsonrpc-request (eglot--current-server-or-lose) method
                     (list :textDocument (eglot--TextDocumentIdentifier)
                           :position (list :line (alist-get 'line position-spec)
                                           :character (alist-get 'character position-spec))))))

(defun lwir-main ()
  (lwir-put "emacs" emacs-version)
  (lwir-put "eglot" (let ((d (cadr (assq 'eglot package-alist))))
                      (if d (package-version-join (package-desc-version d)) "built-in")))
  (lwir-put "docs" lwir-docs)

  (unless
   (lwir-phase "start"
    ;; Open every document; the first of each mode starts its server, `eglot' then manages the rest.
    (dolist (doc (lwir-plan 'docs))
      (let ((name (alist-get 'name doc)))
        (with-current-buffer (find-file-noselect (alist-get 'path doc))
          (puthash name (current-buffer) lwir-buffers)
          (unless eglot--managed-mode (apply #'eglot (eglot--guess-contact)))
          (unless eglot--managed-mode (error "Eglot does not manage %s" name))
          (cl-pushnew (eglot-current-server) lwir-servers)
          (puthash name (let ((h (make-hash-table :test 'equal))) (puthash "uri" (lwir-uri) h) h) lwir-docs))))
    (lwir-put "init_ms" (lwir-ms))
    (lwir-put "servers"
              (vconcat
               (mapcar (lambda (server)
                         (let ((caps (eglot--capabilities server))
                               (td (plist-get (eglot-client-capabilities server) :textDocument)))
                           (list :pid (process-id (jsonrpc--process server))
                                 :language_id (eglot--language-id server)
                                 :client_pull_diagnostics (if (plist-member td :diagnostic) t :json-false)
                                 :client_push_diagnostics (if (plist-member td :publishDiagnostics) t :json-false)
                                 :client_related_information
                                 (if (eq t (plist-get (plist-get td :publishDiagnostics) :relatedInformation)) t :json-false)
                                 :diagnosticProvider (if (plist-member caps :diagnosticProvider) t :json-false)
                                 :completionProvider (if (plist-get caps :completionProvider) t :json-false)
                                 :codeActionProvider (if (plist-get caps :codeActionProvider) t :json-false))))
                       (reverse lwir-servers)))))
    ;; Nothing else can work without the servers.  Keep what they said on stderr for the failure message.
    (lwir-put "server_stderr"
              (mapconcat (lambda (b) (with-current-buffer b (buffer-string)))
                         (cl-remove-if-not (lambda (b) (string-match-p "stderr" (buffer-name b))) (buffer-list))
                         "\n"))
    (dolist (server lwir-servers) (ignore-errors (jsonrpc-shutdown server)))
    (error "the servers did not start"))

  ;; First diagnostics of every document: the raw publish, then what Flymake shows.
  (lwir-phase "diagnostics"
    (dolist (doc (lwir-plan 'docs))
      (let* ((name (alist-get 'name doc))
             (entry (gethash name lwir-docs)))
        (with-current-buffer (lwir-buffer name)
          (let ((p (lwir-wait-publish (lwir-uri))))
            (puthash "raw" (if p (plist-get p :diagnostics) nil) entry)
            (puthash "version" (and p (plist-get p :version)) entry)
            (puthash "shown" (lwir-shown) entry))))))

  (lwir-completion "yaml" (lwir-plan 'completion 'yaml))
  (lwir-completion "json" (lwir-plan 'completion 'json))

  ;; The quick fix through Eglot's own machinery: `eglot-code-actions' over the diagnostic's region sends
  ;; the Flymake diagnostics there (Eglot's copy of the LSP diagnostic, `data' included).
  (lwir-phase "code action"
    (with-current-buffer (lwir-buffer (lwir-plan 'codeAction 'doc))
      (let* ((code (lwir-plan 'codeAction 'code))
             (target (progn (flymake-start)
                            (cl-find-if (lambda (d) (equal code (plist-get (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))) :code)))
                                        (flymake-diagnostics))))
             (_ (unless target (error "Flymake shows no %s diagnostic" code)))
             (actions (eglot-code-actions (flymake-diagnostic-beg target) (flymake-diagnostic-end target)))
             (sent (plist-get (plist-get lwir-code-action-params :context) :diagnostics))
             (chosen (car actions))
             (before eglot--versioned-identifier)
             (out (list :sent (vconcat (mapcar (lambda (d) (list :code (plist-get d :code) :has_data (if (plist-get d :data) t :json-false))) sent))
                        :actions (vconcat (mapcar (lambda (a) (list :title (plist-get a :title) :kind (plist-get a :kind)
                                                                    :isPreferred (if (eq (plist-get a :isPreferred) t) t :json-false)))
                                                  actions)))))
        (lwir-put "code_action" out)
        (unless (plist-get chosen :edit) (error "no code action with an edit"))
        (eglot--apply-workspace-edit (plist-get chosen :edit))
        (eglot--signal-textDocument/didChange)  ; what the idle timer would do
        (let* ((version eglot--versioned-identifier)
               (p (lwir-wait-publish (lwir-uri) (lambda (q) (equal (plist-get q :version) version)))))
          (setq out (append out (list :applied (plist-get chosen :title)
                                      :line_after (save-excursion
                                                    (goto-char (point-min))
                                                    (forward-line (lwir-plan 'codeAction 'needsLine))
                                                    (buffer-substring-no-properties (point) (line-end-position)))
                                      :version_before before :version_after version)))
          (lwir-put "code_action" out)
          (unless p (error "no diagnostics for the edited version"))
          (setq out (append out (list :raw_after (plist-get p :diagnostics) :shown_after (lwir-shown))))
          (lwir-put "code_action" out)
          (save-buffer)))))            ; run.mjs runs the CLI on the fixed file

  (lwir-phase "hover"
    (lwir-put "hover" (lwir-request (lwir-plan 'hover 'doc) :textDocument/hover (lwir-plan 'hover))))
  (lwir-phase "definition"
    (lwir-put "definition" (lwir-request (lwir-plan 'definition 'doc) :textDocument/definition (lwir-plan 'definition))))

  ;; `eglot-shutdown': shutdown request, exit notification; each server must leave by itself.
  (lwir-phase "shutdown"
    (lwir-put "shutdown"
              (vconcat
               (mapcar (lambda (server)
                         (let ((proc (jsonrpc--process server))
                               (t0 (lwir-ms))
                               (err nil))
                           (condition-case e (eglot-shutdown server) (error (setq err (format "%S" e))))
                           (list :pid (process-id proc) :ms (- (lwir-ms) t0) :error err
                                 :status (symbol-name (process-status proc)) :exit_code (process-exit-status proc)
                                 :live (if (process-live-p proc) t :json-false))))
                       (reverse lwir-servers))))))

(condition-case err (lwir-main)
  (error (push (list (cons 'phase "main") (cons 'error (format "%S" err))) lwir-errors)))
(lwir-put "publishes"
          (vconcat (mapcar (lambda (p) (list :uri (plist-get p :uri) :version (plist-get p :version)
                                             :count (length (plist-get p :diagnostics)) :at_ms (plist-get p :at_ms)))
                           (reverse lwir-publishes))))
(lwir-put "server_log" (vconcat (reverse lwir-server-log)))
(lwir-put "errors" (vconcat (reverse lwir-errors)))
(lwir-put "total_ms" (lwir-ms))
(princ (concat "LWIR_REPORT "
               (condition-case err (json-encode lwir-report)
                 (error (json-encode (list (cons 'errors (vector (list (cons 'phase "report") (cons 'error (format "%S" err)))))))))
               "\n"))
(kill-emacs 0)
;;; lsp.el ends here
