;;; carcassonne-rules.el --- carcassonne-rules lsp for the rules' YAML files, with eglot  -*- lexical-binding: t; -*-

;; The carcassonne-rules language server for the rules' YAML files, on Emacs
;; 28 and later with eglot (1.9 and later) and yaml-mode, or yaml-ts-mode
;; where Emacs has it. `load' this file from your init file (or put it on
;; `load-path' and `require' it). The binary is `carcassonne-rules' on PATH
;; unless `carcassonne-rules-server' names it. tests/editor_emacs.rs runs its
;; suite through this file, on Debian's Emacs 28 with Debian's eglot 1.9.

;;; Code:

(require 'eglot)
(require 'project)

(defgroup carcassonne-rules nil
  "The carcassonne-rules language server."
  :group 'tools)

(defcustom carcassonne-rules-server "carcassonne-rules"
  "The carcassonne-rules binary, if it is not on PATH."
  :type 'string)

(defun carcassonne-rules--rules-p (dir)
  "Whether DIR holds modules.yaml and is not a language's folder of
translations, which mirrors the rules files (rules/translations/nl/)."
  (and (file-exists-p (expand-file-name "modules.yaml" dir))
       (let ((parent (file-name-directory (directory-file-name (expand-file-name dir)))))
         (not (and (string= (file-name-nondirectory (directory-file-name parent)) "translations")
                   (file-exists-p (expand-file-name "../modules.yaml" parent)))))))

(defun carcassonne-rules-root (file)
  "The rules folder FILE is in: the nearest folder at or above it holding
modules.yaml that is not a language's folder of translations, or nil; a
rules file and a translation file share it, and so one server. Other YAML
files (a CI workflow, say) get no server."
  (when file
    (let ((dir (locate-dominating-file file #'carcassonne-rules--rules-p)))
      (and dir (file-name-as-directory (expand-file-name dir))))))

(defun carcassonne-rules--project (dir)
  "The rules folder above DIR as a project: eglot runs one server per
project, so one per rules folder, whatever the version control says."
  (let ((root (carcassonne-rules-root dir)))
    (and root (cons 'transient root))))

(defun carcassonne-rules--contact (&optional _interactive)
  "The command that starts the server, read when it starts."
  (list carcassonne-rules-server "lsp"))

(defun carcassonne-rules--start ()
  "Start (or join) the server of the rules folder this buffer's file is in.
The project and the server program are set for this buffer only, so
other YAML files keep whatever server they had, or none."
  (when (carcassonne-rules-root buffer-file-name)
    (add-hook 'project-find-functions #'carcassonne-rules--project nil t)
    (setq-local eglot-server-programs
                (cons (cons major-mode #'carcassonne-rules--contact)
                      eglot-server-programs))
    (eglot-ensure)))

(add-hook 'yaml-mode-hook #'carcassonne-rules--start)
(add-hook 'yaml-ts-mode-hook #'carcassonne-rules--start)

(provide 'carcassonne-rules)
;;; carcassonne-rules.el ends here
