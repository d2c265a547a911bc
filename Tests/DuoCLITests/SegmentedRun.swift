import Foundation
import DuoCore

/// A small second camera (320x180@30, the ball pattern) for individual-mode runs whose cameras differ.
func smallCameraProfile(in dir: String) throws -> String {
    let small = "\(dir)/small.json"
    try Data(#"{"id": "small", "name": "Small", "testPattern": "ball", "formats": [{"width": 320, "height": 180, "frameRates": [30]}]}"#.utf8)
        .write(to: URL(fileURLWithPath: small))
    return small
}

/// A headless individual-mode run under `--swap-policy segment` that records, swaps twice and stops: one
/// take of three segments (640x360, 320x180, 640x360) to join. Returns the run and its events file.
func twoSwapSegmentedRun(in dir: String, audio: String = "none", extra: [String] = []) throws -> (run: Run, events: String) {
    let small = try smallCameraProfile(in: dir)
    return try twoSwapRun(in: dir, cameras: ["inner", "profile:\(small)"], ["--format", "640x360@30", "--audio", audio] + extra)
}

/// Record, swap twice a second apart, stop, quit: the timeline both segmented runs share.
private func twoSwapRun(in dir: String, cameras: [String], _ extra: [String]) throws -> (run: Run, events: String) {
    let timeline = "\(dir)/t.jsonl"
    try Data("""
        {"at": 0.2, "cmd": "record"}
        {"at": 1.2, "cmd": "swap"}
        {"at": 2.2, "cmd": "swap"}
        {"at": 3.2, "cmd": "stop"}
        {"at": 3.4, "cmd": "quit"}
        """.utf8).write(to: URL(fileURLWithPath: timeline))
    let events = "\(dir)/events.jsonl"
    let run = try duoCapture(["--headless"] + cameras.flatMap { ["--camera", $0] } + ["--camera-mode", "individual",
                              "--swap-policy", "segment", "--countdown", "0", "--record-dir", dir, "--timeline", timeline,
                              "--events", events, "--json"] + extra)
    return (run, events)
}

/// A simulated camera of one format (the ball pattern), written as a profile into `dir`.
func profileCamera(in dir: String, id: String, _ format: VideoFormat) throws -> String {
    let path = "\(dir)/\(id).json"
    let rate = String(format: "%g", format.frameRate.value)
    try Data(#"{"id": "\#(id)", "name": "\#(id)", "testPattern": "ball", "formats": [{"width": \#(format.width), "height": \#(format.height), "frameRates": [\#(rate)]}]}"#.utf8)
        .write(to: URL(fileURLWithPath: path))
    return path
}

/// Two profile cameras of the given formats in individual mode under `--swap-policy segment`: record,
/// swap twice a second apart, stop: one take of three segments (first, second, first) to join.
func twoSwapSegmentedRun(in dir: String, first: VideoFormat, second: VideoFormat, extra: [String] = []) throws -> (run: Run, events: String) {
    let a = try profileCamera(in: dir, id: "first", first), b = try profileCamera(in: dir, id: "second", second)
    return try twoSwapRun(in: dir, cameras: ["profile:\(a)", "profile:\(b)"], ["--audio", "none", "--quiet"] + extra)
}
