import CGtk
import DuoCore

//  The cue chooser (issue 37): the C key or the control bar's cue button opens a small dialog on the
//  operator's monitor (placed as the script chooser is, never on the subject's), with the presets, a line
//  of free text of at most 40 characters and clear. Its answer goes to the run as the `cue` command
//  (`CueChooser` maps it); text that is no cue is said in the dialog, which stays open.
//
//  Thread: GTK main thread, as DesktopUI.

extension DesktopUI {
    /// Opens the cue chooser and sends the chosen cue as the key's (`fromButton`: the button's) command.
    /// Not while the window may face the subject (what is typed would be seen; the HUD's line says N first).
    func chooseCue(fromButton: Bool) {
        guard chooserAllowed() else { return }
        let dialog = gtk_dialog_new()!
        let window = dialog.asWindow
        gtk_window_set_title(window, tr("Cue the talent"))
        gtk_window_set_transient_for(window, operatorWindow.asWindow)
        gtk_window_set_modal(window, 1)
        gtk_window_set_destroy_with_parent(window, 1)
        let box = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkDialog.self)
        let content = gtk_dialog_get_content_area(box)!
        gtk_container_set_border_width(content.asContainer, 12)
        gtk_box_set_spacing(UnsafeMutableRawPointer(content).assumingMemoryBound(to: GtkBox.self), 10)

        let grid = gtk_grid_new()!
        let g = UnsafeMutableRawPointer(grid).assumingMemoryBound(to: GtkGrid.self)
        gtk_grid_set_row_spacing(g, 8)
        gtk_grid_set_column_spacing(g, 8)
        gtk_grid_set_column_homogeneous(g, 1)
        for (i, choice) in CueChooser.presets.enumerated() {
            let button = gtk_button_new_with_mnemonic(tr(choice.label))!
            gtk_widget_set_size_request(button, -1, gint(OperatorControl.minimumSize))
            g_signal_connect_data(button, "clicked", unsafeBitCast(Self.presetClicked, to: GCallback.self),
                                  UnsafeMutableRawPointer(bitPattern: i + 1), nil, GConnectFlags(0))
            gtk_grid_attach(g, button, gint(i % 3), gint(i / 3), 1, 1)
        }
        gtk_container_add(content.asContainer, grid)

        let entry = gtk_entry_new()!
        let e = UnsafeMutableRawPointer(entry).assumingMemoryBound(to: GtkEntry.self)
        gtk_entry_set_max_length(e, gint(SubjectCue.maximumLength))
        gtk_entry_set_activates_default(e, 1)
        gtk_entry_set_placeholder_text(e, tr("Your own words: at most 40 characters, then Enter"))
        gtk_container_add(content.asContainer, entry)
        let problem = gtk_label_new("")!
        gtk_label_set_xalign(UnsafeMutableRawPointer(problem).assumingMemoryBound(to: GtkLabel.self), 0)
        gtk_container_add(content.asContainer, problem)

        _ = gtk_dialog_add_button(box, tr("_Cancel"), GTK_RESPONSE_CANCEL.rawValue)
        _ = gtk_dialog_add_button(box, tr("Clear the cue"), gint(CueChooser.clear))
        _ = gtk_dialog_add_button(box, tr("_Send the text"), gint(CueChooser.send))
        gtk_dialog_set_default_response(box, gint(CueChooser.send))
        placeOnOperatorMonitor(dialog)
        gtk_window_set_default_size(window, 560, 1)
        gtk_widget_show_all(dialog)
        gtk_widget_grab_focus(entry)

        var chosen: ControlCommand?
        while true {
            let response = Int(gtk_dialog_run(box))
            let text = String(cString: gtk_entry_get_text(e))
            do throws(DuoError) {
                chosen = try CueChooser.command(response: response, text: text)
                break
            } catch {
                gtk_label_set_text(UnsafeMutableRawPointer(problem).assumingMemoryBound(to: GtkLabel.self), error.message)
            }
        }
        gtk_widget_destroy(dialog)
        if let chosen { fromButton ? onButtonCommand(chosen) : onCommand(chosen) }
    }

    /// A preset's button: the dialog answers with the preset's number (the handler's data).
    private static let presetClicked: @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutableRawPointer?) -> Void = { button, data in
        guard let button, let top = gtk_widget_get_toplevel(button) else { return }
        gtk_dialog_response(UnsafeMutableRawPointer(top).assumingMemoryBound(to: GtkDialog.self), gint(Int(bitPattern: data)))
    }
}
