import CGtk
import DuoCore

/// The operator window's on-screen controls: a GNOME-style OSD bar of touch-sized buttons over the bottom
/// of the picture (`OperatorControl` says which, their commands, keys and icons). It shows on pointer
/// motion, touch or a click anywhere on the window and hides `ControlBarVisibility.hideAfter` later;
/// hidden, it is not drawn at all, so it never covers the picture.
///
/// Thread: GTK main thread.
@MainActor
final class ControlBar {
    /// A button's command (the same its key sends).
    var onCommand: (ControlCommand) -> Void = { _ in }
    /// The script button: the window opens its file chooser (as O does).
    var onOpenScript: () -> Void = {}
    /// The keys button: the window shows or hides its key list (as ? does).
    var onKeyHelp: () -> Void = {}
    /// The cue button: the window opens its cue chooser (as C does).
    var onCue: () -> Void = {}
    /// The note button: the window opens the note field (as Return does).
    var onNote: () -> Void = {}
    /// The note field (NoteField.swift): while open it takes the buttons' place and the bar stays up.
    let noteField: NoteField
    private(set) var noteOpen = false
    /// The bar shown or hidden, with each button's rectangle in screen device pixels while shown.
    var onLayout: (_ shown: Bool, _ buttons: [String: [Int]]) -> Void = { _, _ in }

    let widget: UnsafeMutablePointer<GtkWidget>
    private var buttons: [(control: OperatorControl, widget: UnsafeMutablePointer<GtkWidget>, image: UnsafeMutablePointer<GtkWidget>?)] = []
    private var speedLabel: UnsafeMutablePointer<GtkWidget>?
    private var icons: [OperatorControl: String] = [:]
    private var visibility = ControlBarVisibility()
    private var timer: guint = 0
    private var reported: (shown: Bool, buttons: [String: [Int]]) = (false, [:])
    private var connections: [SignalConnection] = []
    /// Each button's control, by the user-data pointer its "clicked" handler gets.
    private var byPointer: [UnsafeMutableRawPointer: OperatorControl] = [:]

    init(twoCameras: Bool, noteCodes: [String] = NoteCodeBook.standard.codes) {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)
        noteField = NoteField(codes: noteCodes)
        let style = gtk_widget_get_style_context(widget)
        gtk_style_context_add_class(style, "osd")
        gtk_style_context_add_class(style, "duo-controls")
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(widget, 16)
        let css = gtk_css_provider_new()
        gtk_css_provider_load_from_data(css, """
            .duo-controls { padding: 6px; border-radius: 12px; background-color: rgba(0,0,0,0.72); }
            .duo-controls button { min-width: \(OperatorControl.minimumSize)px; min-height: \(OperatorControl.minimumSize)px; padding: 0; }
            .duo-controls button.record image { color: #ff4a3d; }
            .duo-controls label { color: white; font-weight: bold; min-width: 88px; }
            """, -1, nil)
        gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), OpaquePointer(css), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        for control in OperatorControl.bar(twoCameras: twoCameras) {
            if control == .speed {
                let label = gtk_label_new("–")!
                gtk_widget_set_tooltip_text(label, control.tooltip)
                gtk_widget_set_size_request(label, -1, gint(OperatorControl.minimumSize))
                gtk_box_pack_start(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self), label, 0, 0, 0)
                speedLabel = label
                continue
            }
            let button = gtk_button_new()!
            let iconName = control.icon(recording: false, paused: true, fullscreen: true) ?? ""
            let image = gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_LARGE_TOOLBAR)
            icons[control] = iconName
            gtk_button_set_image(UnsafeMutableRawPointer(button).assumingMemoryBound(to: GtkButton.self), image)
            gtk_button_set_relief(UnsafeMutableRawPointer(button).assumingMemoryBound(to: GtkButton.self), GTK_RELIEF_NONE)
            gtk_widget_set_tooltip_text(button, control.tooltip)
            gtk_widget_set_size_request(button, gint(OperatorControl.minimumSize), gint(OperatorControl.minimumSize))
            gtk_widget_set_can_focus(button, 0)   // keys stay with the window's bindings
            gtk_widget_set_name(button, "duo-\(control.rawValue)")
            gtk_style_context_add_class(gtk_widget_get_style_context(button), control.rawValue)
            gtk_box_pack_start(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self), button, 0, 0, 0)
            buttons.append((control, button, image))
            byPointer[UnsafeMutableRawPointer(button)] = control
            connections.append(SignalConnection(UnsafeMutableRawPointer(button), "clicked", Self.clickedCallback, self))
        }
        connections.append(SignalConnection(UnsafeMutableRawPointer(widget), "size-allocate", Self.allocatedCallback, self))
        // The buttons are shown now; the bar itself only on input (show_all on the window leaves it hidden).
        gtk_widget_show_all(widget)
        gtk_widget_hide(widget)
        gtk_widget_set_no_show_all(widget, 1)
        gtk_box_pack_start(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self), noteField.widget, 1, 1, 0)
        gtk_widget_hide(noteField.widget)
    }

    /// Opens the note field in the buttons' place (the bar shown and held up until it closes), or closes
    /// it (the buttons back, the bar hiding 3 s later).
    func setNoteOpen(_ open: Bool) {
        guard open != noteOpen else { return }
        noteOpen = open
        for (_, button, _) in buttons { open ? gtk_widget_hide(button) : gtk_widget_show(button) }
        if let speedLabel { open ? gtk_widget_hide(speedLabel) : gtk_widget_show(speedLabel) }
        open ? gtk_widget_show(noteField.widget) : gtk_widget_hide(noteField.widget)
        input()
    }

    /// The icons and the speed figure follow the run: stop while recording or counting down, resume while
    /// paused, leave-fullscreen while fullscreen.
    func update(_ hud: HudModel, fullscreen: Bool) {
        let busy = hud.recording || hud.countdown != nil
        for (control, button, image) in buttons {
            guard let name = control.icon(recording: busy, paused: hud.scrollPaused, fullscreen: fullscreen), icons[control] != name, let image else { continue }
            icons[control] = name
            gtk_image_set_from_icon_name(UnsafeMutableRawPointer(image).assumingMemoryBound(to: GtkImage.self), name, GTK_ICON_SIZE_LARGE_TOOLBAR)
            _ = button
        }
        if let label = speedLabel {
            let text = hud.scriptProgress == nil ? "–" : (hud.speed ?? "–") + (hud.scrollReversed ? " ◂" : "")
            if String(cString: gtk_label_get_text(UnsafeMutableRawPointer(label).assumingMemoryBound(to: GtkLabel.self))) != text {
                gtk_label_set_text(UnsafeMutableRawPointer(label).assumingMemoryBound(to: GtkLabel.self), text)
            }
        }
    }

    /// Clear of the operator display profile's bottom inset and occlusions (logical pixels).
    func setBottomMargin(_ margin: Int) {
        if gtk_widget_get_margin_bottom(widget) != gint(margin) { gtk_widget_set_margin_bottom(widget, gint(margin)) }
    }

    /// Pointer motion, touch or a click: shows the bar and restarts its timer.
    func input() {
        let now = Self.now()
        let wasShown = visibility.shown(at: now)
        visibility.input(at: now)
        if !wasShown { gtk_widget_show(widget) }
        schedule(now)
    }

    func close() {
        if timer != 0 { g_source_remove(timer); timer = 0 }
        connections.removeAll()
        noteField.close()
    }

    private func schedule(_ now: Int64) {
        if timer != 0 { g_source_remove(timer); timer = 0 }
        guard let at = visibility.hidesAt(now) else { return }
        let ms = guint(max(1, (at - now + 999_999) / 1_000_000))
        timer = g_timeout_add_full(G_PRIORITY_DEFAULT, ms, { data in
            let bar = Unmanaged<ControlBar>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { bar.tick() }
            return 0  // G_SOURCE_REMOVE
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func tick() {
        timer = 0
        let now = Self.now()
        if visibility.shown(at: now) { schedule(now); return }
        // Held up while the note field is open; closing it restarts the timer.
        if noteOpen { return }
        gtk_widget_hide(widget)
        report()
    }

    /// Each button's rectangle on the screen (device pixels), reported when it changes.
    private func report() {
        let shown = gtk_widget_get_visible(widget) != 0 && gtk_widget_get_mapped(widget) != 0
        var rects: [String: [Int]] = [:]
        if shown, let toplevel = gtk_widget_get_toplevel(widget), let window = gtk_widget_get_window(toplevel) {
            var ox: gint = 0, oy: gint = 0
            gdk_window_get_origin(window, &ox, &oy)
            let scale = Int(gtk_widget_get_scale_factor(widget))
            // The buttons, or while the note field is open its entry and code chooser.
            let shownWidgets = noteOpen ? [("note-text", noteField.entry), ("note-code", noteField.chooser)]
                : buttons.map { ($0.control.rawValue, $0.widget) }
            for (name, button) in shownWidgets {
                var x: gint = 0, y: gint = 0
                guard gtk_widget_translate_coordinates(button, toplevel, 0, 0, &x, &y) != 0 else { continue }
                let w = Int(gtk_widget_get_allocated_width(button)), h = Int(gtk_widget_get_allocated_height(button))
                rects[name] = [(Int(ox) + Int(x)) * scale, (Int(oy) + Int(y)) * scale, w * scale, h * scale]
            }
        }
        guard reported.shown != shown || reported.buttons != rects else { return }
        reported = (shown, rects)
        onLayout(shown, rects)
    }

    private static func now() -> Int64 { Int64(g_get_monotonic_time()) * 1000 }

    private nonisolated static func this(_ data: UnsafeMutableRawPointer?) -> ControlBar {
        Unmanaged<ControlBar>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let clickedCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { button, data in
        let bar = this(data)
        onGtkThread(with: button) { pressed in
            bar.input()
            guard let pressed, let control = bar.byPointer[pressed] else { return }
            if control == .script { bar.onOpenScript() } else if control == .keys { bar.onKeyHelp() } else if control == .cue { bar.onCue() }
            else if control == .note { bar.onNote() }
            else if let command = control.command { bar.onCommand(command) }
        }
    }

    private static let allocatedCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, data in
        let bar = this(data)
        // After the allocation settles (the buttons' own allocations follow the box's).
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { data in
            let bar = Unmanaged<ControlBar>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { bar.report() }
            return 0
        }, Unmanaged.passUnretained(bar).toOpaque(), nil)
    }
}
