import CGtk
import DuoCore

//  Notes from the operator's keyboard (issue 39): Return or the control bar's note button opens the bar's
//  note field (NoteField.swift); Enter sends what is typed as the run's `note` command with the chosen
//  code, Esc closes it (the words kept for the next time), Up / Down choose the code. While it is open no
//  key reaches the window's bindings. Not while the window may face the subject (what is typed would be
//  seen): as the cue chooser, it then does not open, and an open one closes.
//
//  Thread: GTK main thread, as DesktopUI.

extension DesktopUI {
    /// Opens the note field on the control bar with the keys in its entry.
    func openNote() {
        guard chooserAllowed(), let bar = controlBar else { return }
        bar.setNoteOpen(true)
        gtk_widget_grab_focus(bar.noteField.entry)
    }

    /// Closes the note field; the keys go back to the window's bindings.
    func closeNote() {
        guard let bar = controlBar, bar.noteOpen else { return }
        bar.setNoteOpen(false)
        gtk_window_set_focus(operatorWindow.asWindow, nil)
    }

    /// A key while the note field is open: true when it was the field's own, false to let GTK give it to
    /// the entry; nil while the field is closed (the window's bindings take it).
    func noteKey(_ keyval: Int32) -> Bool? {
        guard let bar = controlBar else { return nil }
        guard bar.noteOpen else {
            if keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter { openNote(); return true }
            return nil
        }
        switch keyval {
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter:
            let field = bar.noteField, text = field.text
            // Nothing typed: nothing to save; the field just closes.
            if !text.isEmpty {
                onCommand(.note(code: field.code, text: text))
                field.clear()
            }
            closeNote()
            return true
        case GDK_KEY_Escape: closeNote(); return true
        case GDK_KEY_Up: bar.noteField.choose(-1); return true
        case GDK_KEY_Down: bar.noteField.choose(1); return true
        default: return false
        }
    }
}
