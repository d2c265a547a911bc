import CDuoShim
import CGStreamer
import DuoCore

//  A bin attached to a running tee through a request pad, and detached at a buffer boundary (the tee never
//  waits): how the recogniser, the remote displays and the framing detector join the graph. Its errors
//  never travel back through the tee.

/// A branch of its own on a tee: a bin, linked through a request pad.
///
/// Thread: value type, owned by the side branch that attached it (the capture session's actor).
struct TeeBranch {
    let bin: ElementRef, tee: ElementRef, teePad: PadRef, sink: PadRef

    /// Parses `description` into a bin named `name` and attaches it (see the other `attach`).
    static func attach(_ description: String, name: String, first: String, to tee: ElementRef,
                       in pipeline: ElementRef, what: String, file: String) throws(DuoError) -> TeeBranch {
        try attach(bin: try TakeRecorder.parseBin(description, name: name, what: what, file: file), first: first,
                   to: tee, in: pipeline, what: what, file: file)
    }

    /// Adds `bin` to `pipeline`, its first element `first` fed from `tee`; in a playing graph the caller
    /// then starts it in step with it (`bin.syncStateWithParent()`). Its errors never reach the tee.
    static func attach(bin: ElementRef, first: String, to tee: ElementRef,
                       in pipeline: ElementRef, what: String, file: String) throws(DuoError) -> TeeBranch {
        guard let head = bin.child(named: first), let target = head.staticPad("sink"),
              let ghost = gst_ghost_pad_new("sink", target.pointer) else {
            throw .input(.text("pipeline file %s must start with an element named %s", file, first))
        }
        gst_element_add_pad(bin.pointer, ghost)
        duo_isolate_branch_errors(ghost)
        let sink = PadRef(adopting: gst_object_ref(UnsafeMutableRawPointer(ghost)).assumingMemoryBound(to: GstPad.self))
        _ = gst_bin_add(duo_as_bin(pipeline.pointer), bin.pointer)
        gst_object_ref(UnsafeMutableRawPointer(bin.pointer))
        guard let teePadPointer = gst_element_request_pad_simple(tee.pointer, "src_%u") else {
            throw .runtime(.text("the tee gave no pad for %s", what))
        }
        let teePad = PadRef(adopting: teePadPointer)
        guard gst_pad_link(teePad.pointer, sink.pointer) == GST_PAD_LINK_OK else {
            gst_element_release_request_pad(tee.pointer, teePad.pointer)
            throw .runtime(.text("%s does not link to its tee; check Pipelines/%s", what, file))
        }
        return TeeBranch(bin: bin, tee: tee, teePad: teePad, sink: sink)
    }

    /// Detaches the branch at a buffer boundary (the tee never waits), stops it and takes it out of
    /// `pipeline`.
    func detach(from pipeline: ElementRef) {
        duo_detach_branch_when_idle(tee.pointer, teePad.pointer, sink.pointer)
        bin.setState(GST_STATE_NULL)
        _ = gst_bin_remove(duo_as_bin(pipeline.pointer), bin.pointer)
    }
}
