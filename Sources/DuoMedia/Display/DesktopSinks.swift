import CDuoShim
import CGStreamer
import DuoCore

/// A GTK widget created by a gtksink, as an opaque pointer for the desktop layer (which owns every
/// gtk_* call). Holds one reference, handed over to whoever packs the widget into a window.
///
/// Thread: the pointer is only dereferenced on the GTK main thread.
// Unchecked: a GtkWidget pointer, dereferenced only on the GTK main thread.
public struct SinkWidget: @unchecked Sendable {
    public let pointer: UnsafeMutableRawPointer
}

/// The graph between being built and being started, for `CaptureSession.start(beforePlaying:)`.
///
/// Thread: used on the session actor, inside `start`.
public struct PreparedGraph: Sendable {
    let pipeline: ElementRef

    /// The widget of the gtksink named `name`. gtksink makes the widget on the GTK main thread and waits
    /// for it, so call this from any thread but the GTK one while the GTK main loop runs.
    public func gtkWidget(sink name: String) throws(DuoError) -> SinkWidget {
        guard let sink = pipeline.child(named: name) else {
            throw .input(.text("the desktop pipeline files must keep a gtksink named %s; check Pipelines/", name))
        }
        guard sink.has("widget"), let widget = duo_get_object_property(UnsafeMutableRawPointer(sink.pointer), "widget") else {
            throw .input(.text("%s is not a gtksink (it has no widget); check Pipelines/*-desktop.gst", name))
        }
        return SinkWidget(pointer: widget)
    }
}
