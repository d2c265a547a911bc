import CDuoShim
import CGStreamer
import DuoCore

/// Where the operator and subject branches end: `Pipelines/operator-<mode>.gst`, `subject-<mode>.gst`.
///
/// Thread: value type, Sendable.
public enum SinkMode: String, Sendable {
    /// fakesinks: CI, `--headless`.
    case headless
    /// gtksinks in the operator and subject windows; the subject branch behind a valve (`subject_valve`).
    case desktop
}

/// A GTK widget created by a gtksink, as an opaque pointer for the desktop layer (which owns every
/// gtk_* call). Holds one reference, handed over to whoever packs the widget into a window.
///
/// Thread: the pointer is only dereferenced on the GTK main thread.
public struct SinkWidget: @unchecked Sendable {
    public let pointer: UnsafeMutableRawPointer
}

/// The graph between being built and being started, for `CaptureSession.start(beforePlaying:)`.
///
/// Thread: used on the session actor, inside `start`.
public struct PreparedGraph: @unchecked Sendable {
    let pipeline: ElementRef

    /// The widget of the gtksink named `name`. gtksink makes the widget on the GTK main thread and waits
    /// for it, so call this from any thread but the GTK one while the GTK main loop runs.
    public func gtkWidget(sink name: String) throws(DuoError) -> SinkWidget {
        guard let sink = pipeline.child(named: name) else {
            throw .input("the desktop pipeline files must keep a gtksink named \(name); check Pipelines/")
        }
        guard sink.has("widget"), let widget = duo_get_object_property(UnsafeMutableRawPointer(sink.pointer), "widget") else {
            throw .input("\(name) is not a gtksink (it has no widget); check Pipelines/*-desktop.gst")
        }
        return SinkWidget(pointer: widget)
    }
}

extension CaptureSession {
    /// Frames rendered and dropped by a sink (basesink `stats`), nil if it has no such element.
    public func sinkStats(_ name: String) -> (rendered: UInt64, dropped: UInt64)? {
        guard let sink = pipeline?.child(named: name) else { return nil }
        var rendered: guint64 = 0, dropped: guint64 = 0
        guard duo_sink_stats(sink.pointer, &rendered, &dropped) != 0 else { return nil }
        return (UInt64(rendered), UInt64(dropped))
    }
}
