import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// `duo-capture display`'s graph: the subject view received over SRT into a gtksink. When the stream
/// ends or fails (the sender went, the network broke for longer than SRT's budget, a wrong passphrase),
/// the graph is started again and waits for the sender: the display recovers by itself.
///
/// Thread: built on the main task; its bus is read on a thread of its own, which restarts the graph;
/// `framesShown` from any thread.
public final class RemoteDisplayReceiver: Sendable {
    private let pipeline: ElementRef
    private let counter: FrameCounter
    private let stop = StopFlag()
    /// What the bus thread runs, started by `start()`: restarts the graph after an error or end.
    private let restart: @Sendable (BusMessage) -> Bool
    private let reader = Locked<BusThread?>(nil)
    public let widget: SinkWidget

    /// `address`: srt://:PORT listens (the sender calls); srt://HOST:PORT calls a listening sender.
    public init(library: PipelineLibrary, address: SRTAddress, passphrase: String?, latencyMilliseconds: Int,
                log: @escaping @Sendable (String) -> Void) throws(DuoError) {
        GStreamer.initialize()
        try GStreamer.require(["srtsrc", "rtph264depay", "h264parse", "avdec_h264", "gtksink"], for: .text("duo-capture display"))
        let uri = address.isListener ? "srt://:\(address.port)?mode=listener" : "srt://\(address.host!):\(address.port)?mode=caller"
        let description = try library.render("display", [
            "uri": AudioSource.launchQuoted(uri), "latency": "\(latencyMilliseconds)",
            "encryption": passphrase.map { "passphrase=\"\(AudioSource.launchQuoted($0))\" pbkeylen=32" } ?? "",
        ])
        pipeline = try CaptureSession.parse(description)
        guard let sink = pipeline.child(.displaySink), let pad = sink.staticPad("sink") else {
            throw .input(.text("Pipelines/display.gst must end in a gtksink named display_sink"))
        }
        counter = FrameCounter(pad: pad)
        // The test hub's benchmark probe, when registered (duo-capture-testhub): the sender's frame numbers.
        if let hook = MediaHooks.displayDecoded.value, let decoded = pipeline.child(.displayDecoder)?.staticPad("src") {
            hook(decoded.pointer)
        }
        guard sink.has("widget"), let w = duo_get_object_property(UnsafeMutableRawPointer(sink.pointer), "widget") else {
            throw .input(.text("display_sink is not a gtksink; check Pipelines/display.gst"))
        }
        widget = SinkWidget(pointer: w)
        let pipeline = self.pipeline, stop = self.stop
        let said = Locked<String?>(nil)
        restart = { message in
            let text = message.type == GST_MESSAGE_ERROR ? message.problem?.message ?? tr("error") : tr("the stream ended")
            if said.value != text { log(tr("duo-capture: display: %s; waiting for duo-capture again", text)); said.set(text) }
            // Start again from nothing: a listener listens anew, a caller calls again.
            pipeline.setState(GST_STATE_NULL)
            if stop.isSet { return false }
            Thread.sleep(forTimeInterval: address.isListener ? 0.05 : 1.0)
            if stop.isSet { return false }
            pipeline.setState(GST_STATE_PLAYING)
            return true
        }
    }

    public func start() {
        pipeline.setState(GST_STATE_PLAYING)
        let kinds = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue)
        reader.set(BusThread(PipelineBus(pipeline), name: "duo-display-bus", kinds: kinds, handler: restart))
    }

    public func stopReceiving() {
        stop.set()
        pipeline.setState(GST_STATE_NULL)
        // Not joined: a caller's restart may be waiting its second out; it stops without playing again.
        reader.value?.cancel(join: false)
    }

    /// Frames shown so far, and when the last one arrived (µs, monotonic), for "waiting" and tests.
    public var framesShown: FrameCount { counter.read() }
}
