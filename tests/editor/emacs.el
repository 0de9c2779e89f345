;;; emacs.el --- drives the language server from Emacs with eglot  -*- lexical-binding: t; -*-

;; Run by tests/editor_emacs.rs as `emacs --batch -Q -l emacs.el', with the
;; set-up as a user installs it (editors/emacs/carcassonne-rules.el) on a
;; copy of the rules: the server attaches to a rules file and not to other
;; YAML, a planted mistake gets its flymake diagnostic, completion, hover,
;; definition and the quick fix. Writes one line per check to $RESULTS: "ok
;; NAME" or "fail NAME: why", as it goes, so that a check that hangs leaves
;; the ones before it; a Lisp error is written as "error: …" and Emacs quits.

;;; Code:

(defvar test-results nil "The lines written so far, last first.")

(defun check (name ok &optional why)
  "Record check NAME: OK, or not with WHY."
  (push (if ok (concat "ok " name) (format "fail %s: %S" name why)) test-results)
  (with-temp-file (getenv "RESULTS")
    (insert (mapconcat #'identity (reverse test-results) "\n") "\n")))

(defun command ()
  "What the command loop does after a command, and when the user pauses:
post-command hooks, then the idle timers (batch Emacs runs neither)."
  (run-hooks 'post-command-hook)
  (accept-process-output nil 0.05)
  (dolist (timer (copy-sequence timer-idle-list))
    (timer-event-handler timer)))

(defun wait-for (what &optional seconds)
  "Call WHAT as the user waits, until it is non-nil or SECONDS (20) pass."
  (let ((until (+ (float-time) (or seconds 20))) found)
    (while (and (not (setq found (funcall what))) (< (float-time) until))
      (command)
      (accept-process-output nil 0.1))
    found))

(defun goto-text (text)
  "Move to the start of the first TEXT in the buffer: its line's number."
  (goto-char (point-min))
  (search-forward text)
  (goto-char (match-beginning 0))
  (line-number-at-pos))

(defun replace-line (text)
  "Replace the current line with TEXT, as typing would."
  (delete-region (line-beginning-position) (line-end-position))
  (insert text)
  (command))

(defun diagnostics ()
  "The flymake diagnostics of this buffer, as (LINE . TEXT)."
  (mapcar (lambda (d) (cons (line-number-at-pos (flymake-diagnostic-beg d))
                            (flymake-diagnostic-text d)))
          (flymake-diagnostics)))

(defun run ()
  (let ((root (getenv "RULES_ROOT")))
    ;; What a user's start-up does: Debian's elpa-* packages (-Q leaves their
    ;; folder out), then the set-up.
    (setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
    (package-activate-all)
    (setq carcassonne-rules-server (getenv "SERVER"))
    (load (getenv "CONFIG") nil t)
    (find-file (concat root "/rules/expansions/abbey-and-mayor.yaml"))
    (command)
    (let ((server (wait-for #'eglot-current-server)))
      (check "attached" (and server eglot--managed-mode (eq major-mode 'yaml-mode)
                             (equal (process-command (jsonrpc--process server))
                                    (list (getenv "SERVER") "lsp"))
                             (equal (project-root (eglot--project server))
                                    (file-name-as-directory (expand-file-name (concat root "/rules")))))
             (list (and server (process-command (jsonrpc--process server)))
                   (and server (project-root (eglot--project server))) major-mode)))

    ;; A misspelt module in a condition: flymake shows it on its line, with its code.
    (let ((line (goto-text "when: mayor")))
      (replace-line "      when: mayr")
      (let ((found (wait-for #'diagnostics)))
        (check "diagnostic" (and (= (length found) 1) (= (caar found) line)
                                 (string-prefix-p "carcassonne-rules [unknown-module]: unknown module or flag `mayr`"
                                                  (cdar found)))
               found))

      ;; Its quick fix, as `C-u M-x eglot-code-actions RET quickfix' applies it.
      (let ((diag (car (flymake-diagnostics))))
        (when diag
          (eglot-code-actions (flymake-diagnostic-beg diag) (flymake-diagnostic-end diag) "quickfix" t)))
      (command)
      (check "quick fix" (equal (buffer-substring (line-beginning-position) (line-end-position)) "      when: mayor")
             (buffer-substring (line-beginning-position) (line-end-position)))
      (check "fixed" (wait-for (lambda () (null (diagnostics)))) (diagnostics))

      ;; Completion after `or ', from eglot's completion-at-point function.
      (goto-char (point-min))
      (forward-line (1- line))
      (replace-line "      when: abbey or ")
      (let* ((capf (run-hook-with-args-until-success 'completion-at-point-functions))
             (names (and capf (all-completions "" (nth 2 capf)))))
        (check "completion" (and (member "mayor" names) (member "tiles_in_supply" names) (not (member "C1" names)))
               (list capf names)))
      (replace-line "      when: mayor")
      (check "clean again" (wait-for (lambda () (null (diagnostics)))) (diagnostics)))

    ;; A half-typed kebab-case id: the completion's textEdit replaces the
    ;; whole word typed, `deploy-n', and the line reads the whole id.
    (goto-text "      after: deploy-normal-meeple")
    (replace-line "      after: deploy-n")
    (let* ((capf (run-hook-with-args-until-success 'completion-at-point-functions))
           (names (and capf (all-completions "deploy-n" (nth 2 capf)))))
      (when (and capf (equal names '("deploy-normal-meeple")))
        (completion-in-region (nth 0 capf) (nth 1 capf) (nth 2 capf) (plist-get (nthcdr 3 capf) :predicate)))
      (check "hyphenated completion"
             (and (equal names '("deploy-normal-meeple"))
                  (equal (buffer-substring (line-beginning-position) (line-end-position))
                         "      after: deploy-normal-meeple"))
             (list names (buffer-substring (line-beginning-position) (line-end-position)))))
    (replace-line "      after: deploy-normal-meeple")

    ;; Hover on an item id, through eldoc's function.
    (goto-text "id: abbey-take-tile")
    (forward-char 6)
    (let (shown)
      (eglot-hover-eldoc-function (lambda (info &rest _) (setq shown (or info ""))))
      (wait-for (lambda () shown) 10)
      (check "hover" (and shown (string-match-p "50\\.0% of selections" shown)
                         (string-match-p "placed" shown)) shown))

    ;; Definition of an item named in `after:', as M-. jumps there.
    (goto-text "after: mayor-deploy")
    (forward-char 8)
    (let ((from (current-buffer)))
      (call-interactively #'xref-find-definitions)
      (check "definition" (and (eq (current-buffer) from)
                               (string-match-p "id: mayor-deploy$"
                                               (buffer-substring (line-beginning-position) (line-end-position))))
             (list (buffer-name) (buffer-substring (line-beginning-position) (line-end-position)))))

    ;; One workspace: a Dutch translation file joins the expansion file's
    ;; server, clean; an orphaned key there is shown at its line.
    (let ((server (eglot-current-server))
          (abbey (current-buffer)))
      (find-file (concat root "/rules/translations/nl/expansions/abbey-and-mayor.yaml"))
      (command)
      (wait-for #'eglot-current-server)
      (check "one server for a translation file"
             (and (eq (eglot-current-server) server)
                  (= (length (gethash (eglot--project server) eglot--servers-by-project)) 1)
                  (progn (accept-process-output nil 0.5) (null (diagnostics))))
             (list (eglot-current-server) server (diagnostics)))
      (let ((line (goto-text "  abbey-take-tile:")))
        (replace-line "  abbey-take-tyle:")
        (let ((found (wait-for (lambda () (seq-filter (lambda (d) (string-match-p "orphaned" (cdr d)))
                                                      (diagnostics))))))
          (check "orphaned translation"
                 (and (= (length found) 1) (= (caar found) line)
                      (string-match-p "did you mean `abbey-take-tile`" (cdar found)))
                 (diagnostics)))
        (replace-line "  abbey-take-tile:")
        (check "translation clean again" (wait-for (lambda () (null (diagnostics)))) (diagnostics)))
      (let ((dutch (current-buffer)))
        ;; A rename of an item, applied by eglot and saved: no stale problem.
        (switch-to-buffer abbey)
        (goto-text "id: abbey-take-tile")
        (forward-char 6)
        (eglot-rename "abbey-tile-taken")
        (save-some-buffers t)
        (command)
        (check "rename and save"
               (and (wait-for (lambda () (and (null (diagnostics))
                                              (with-current-buffer dutch (null (diagnostics))))))
                    (with-current-buffer dutch (save-excursion (goto-char (point-min))
                                                               (search-forward "abbey-tile-taken:" nil t))))
               (list (diagnostics) (with-current-buffer dutch (diagnostics)))))
      ;; An editor's backup beside the expansion file: one message, at it
      ;; (the server is told by eglot's file watcher), nothing elsewhere.
      (let ((backup (concat root "/rules/expansions/abbey-and-mayor.yaml~")))
        (write-region (point-min) (point-max) backup)
        (accept-process-output nil 1)
        (command)
        (find-file backup)
        (command)
        ;; Flymake asks eglot on display, which batch Emacs does not do.
        (let ((found (wait-for (lambda () (flymake-start) (diagnostics)))))
          (check "backup file" (and (= (length found) 1) (= (caar found) 1)
                                    (string-match-p "backup" (cdar found))
                                    (with-current-buffer abbey (null (diagnostics))))
                 (list found (with-current-buffer abbey (diagnostics)))))))

    ;; A YAML file outside any rules folder gets no server.
    (find-file (getenv "ELSEWHERE"))
    (command)
    (check "not elsewhere" (and (eq major-mode 'yaml-mode) (not eglot--managed-mode) (null (eglot-current-server)))
           (list major-mode (eglot-current-server)))))

(condition-case err
    (run)
  (error (push (format "error: %S" err) test-results)
         (with-temp-file (getenv "RESULTS")
           (insert (mapconcat #'identity (reverse test-results) "\n") "\n"))))
(when (fboundp 'eglot-shutdown-all) (eglot-shutdown-all))
(kill-emacs 0)
