import CGtk
import DuoCore

//  Notes from the operator's keyboard (issue 39): Return or the control bar's note button opens the bar's
//  note field (NoteField.swift); Enter sends what is typed as the run's `note` command with the chosen
//  code, Esc closes it (the words kept for the next time), Up / Down choose the code. While it is open no
//  key reaches the window's bindings: each goes to the entry (an input method's keys stay its own). Not
//  while the window may face the subject (what is typed would be seen): as the cue chooser, it then does
//  not open, and an open one closes.
//
//  Thread: GTK main thread, as DesktopUI.

extension DesktopUI {
    /// Opens the note field on the control bar with the keys in its entry.
    func openNote() {
        guard chooserAllowed(), let bar = controlBar else { return }
        let field = bar.noteField
        field.onSave = { [unowned self] in saveNote() }
        field.onCancel = { [unowned self] in closeNote() }
        bar.setNoteOpen(true)
        gtk_widget_grab_focus(field.entry)
    }

    /// Closes the note field; the keys go back to the window's bindings.
    func closeNote() {
        guard let bar = controlBar, bar.noteOpen else { return }
        bar.setNoteOpen(false)
        gtk_window_set_focus(operatorWindow.asWindow, nil)
    }

    /// Enter: what is typed goes to the run as the key's `note` command (nothing typed: nothing to save),
    /// and the field closes.
    private func saveNote() {
        guard let field = controlBar?.noteField else { return }
        let text = field.text
        if !text.isEmpty {
            onCommand(.note(code: field.code, text: text))
            field.clear()
        }
        closeNote()
    }

    /// A key of the operator or subject window: true when it opened the note field; false while the field
    /// is open (GTK gives the key to the entry, never to a binding); nil when the field has nothing to do
    /// with it (the window's bindings take it).
    func noteKey(_ keyval: Int32) -> Bool? {
        guard let bar = controlBar else { return nil }
        guard bar.noteOpen else {
            if keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter { openNote(); return true }
            return nil
        }
        if gtk_widget_has_focus(bar.noteField.entry) == 0 { gtk_widget_grab_focus(bar.noteField.entry) }
        return false
    }
}
