import CGtk
import Foundation
import DuoCore

//  The note field of the operator's control bar (issue 39): Return (or the bar's note button) opens it in
//  the bar's place of the buttons: a code chooser (the run's code book, the first chosen) and a text entry
//  of at most 500 characters. Enter saves it as the run's `note` command (the control socket's own), Esc
//  closes it; Up / Down choose the code. While it is open every key goes to the entry, never to the
//  window's bindings (DesktopUI+Notes.swift), so Space starts no take and Q quits nothing. The entry
//  takes them first (an input method's Return or Esc stays the input method's): Enter is its `activate`,
//  Esc and Up / Down are read after it (connected after its own key handler).

/// The note field's widgets: a row of the code chooser and the entry, packed into the control bar.
///
/// Thread: GTK main thread.
@MainActor
final class NoteField {
    let widget: UnsafeMutablePointer<GtkWidget>
    let entry: UnsafeMutablePointer<GtkWidget>
    let chooser: UnsafeMutablePointer<GtkWidget>
    let codes: [String]
    /// Enter in the entry.
    var onSave: () -> Void = {}
    /// Esc in the entry.
    var onCancel: () -> Void = {}
    private var connections: [SignalConnection] = []
    private var combo: UnsafeMutablePointer<GtkComboBox> { UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkComboBox.self) }

    init(codes: [String]) {
        self.codes = codes.isEmpty ? NoteCodeBook.standard.codes : codes
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_set_name(widget, "duo-note-field")
        chooser = gtk_combo_box_text_new()
        for code in self.codes { gtk_combo_box_text_append_text(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkComboBoxText.self), code) }
        gtk_combo_box_set_active(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkComboBox.self), 0)
        // A click picks a code without taking the keys from the entry.
        gtk_widget_set_focus_on_click(chooser, 0)
        gtk_widget_set_tooltip_text(chooser, tr("The note's code (Up / Down)"))
        gtk_widget_set_size_request(chooser, -1, gint(OperatorControl.minimumSize))
        entry = gtk_entry_new()
        let e = UnsafeMutableRawPointer(entry).assumingMemoryBound(to: GtkEntry.self)
        gtk_entry_set_max_length(e, gint(NoteCodeBook.longestText))
        gtk_entry_set_width_chars(e, 48)
        gtk_entry_set_placeholder_text(e, tr("A note: Enter saves it, Esc cancels, Up / Down choose the code"))
        gtk_widget_set_size_request(entry, -1, gint(OperatorControl.minimumSize))
        let box = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self)
        gtk_box_pack_start(box, chooser, 0, 0, 0)
        gtk_box_pack_start(box, entry, 1, 1, 0)
        gtk_widget_show_all(widget)
        connections.append(SignalConnection(UnsafeMutableRawPointer(entry), "activate", Self.activated, self))
        connections.append(SignalConnection(UnsafeMutableRawPointer(entry), "key-press-event", Self.keyPressed, self, after: true))
    }

    func close() { connections.removeAll() }

    /// Esc closes, Up / Down choose the code: what the entry itself (and an input method) left alone.
    private func key(_ keyval: Int32) -> Bool {
        switch keyval {
        case GDK_KEY_Escape: onCancel()
        case GDK_KEY_Up: choose(-1)
        case GDK_KEY_Down: choose(1)
        default: return false
        }
        return true
    }

    private nonisolated static func this(_ data: UnsafeMutableRawPointer?) -> NoteField {
        Unmanaged<NoteField>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let activated: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        let field = this(data)
        MainActor.assumeIsolated { field.onSave() }
    }

    private static let keyPressed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
        let key = Int32(event!.assumingMemoryBound(to: GdkEventKey.self).pointee.keyval)
        let field = this(data)
        return MainActor.assumeIsolated { field.key(key) ? 1 : 0 }
    }

    /// The code chosen (the book's first unless Up / Down or a click chose another).
    var code: String {
        let i = Int(gtk_combo_box_get_active(combo))
        return codes.indices.contains(i) ? codes[i] : codes[0]
    }

    /// The next (`step` 1) or previous (-1) code, round the book.
    func choose(_ step: Int) {
        let i = Int(gtk_combo_box_get_active(combo))
        let next = ((max(i, 0) + step) % codes.count + codes.count) % codes.count
        gtk_combo_box_set_active(combo, gint(next))
    }

    /// What is typed, without the spaces around it.
    var text: String {
        String(cString: gtk_entry_get_text(UnsafeMutableRawPointer(entry).assumingMemoryBound(to: GtkEntry.self)))
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Empties the entry and chooses the book's first code again (after a note is saved).
    func clear() {
        gtk_entry_set_text(UnsafeMutableRawPointer(entry).assumingMemoryBound(to: GtkEntry.self), "")
        gtk_combo_box_set_active(combo, 0)
    }
}
