import DuoCore
import Foundation
import XCTest

/// Notes, flags, chapters and exports through the real program (issue 39): one headless session with
/// notes inside and between two takes feeds the sidecars, the events, `report --json`, the files'
/// chapters (read back by ffprobe) and the three exports (read back by OpenTimelineIO from PyPI and
/// Python's csv), and the first take's MP4 remux (its chapters, its frames); a second run killed mid-take
/// keeps its note, and the next start writes its chapters.
final class NotesRunTests: XCTestCase {
    /// A venv with opentimelineio and its CMX 3600 adapter (from PyPI), made once in the tests' cache.
    static func otioPython() throws -> String {
        let base = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
        let venv = "\(base)/duo-capture-tests/otio-venv"
        let python = "\(venv)/bin/python"
        let probe = try runToEnd(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", "import sys, subprocess; sys.exit(subprocess.run([sys.argv[1], '-c', 'import opentimelineio, otio_cmx3600_adapter']).returncode)", python], timeout: 60)
        if probe.status == 0 { return python }
        try? FileManager.default.removeItem(atPath: venv)
        let make = try runToEnd(URL(fileURLWithPath: "/usr/bin/python3"), ["-m", "venv", venv], timeout: 120)
        guard make.status == 0 else { throw DuoError.runtime("cannot make a venv at \(venv) (install python3-venv): \(make.stderr)") }
        let pip = try runToEnd(URL(fileURLWithPath: python), ["-m", "pip", "install", "-q", "opentimelineio==0.18.1", "otio-cmx3600-adapter"], timeout: 300)
        guard pip.status == 0 else {
            throw DuoError.runtime("could not install opentimelineio and otio-cmx3600-adapter from PyPI into \(venv); give this machine access to PyPI: \(pip.stderr)")
        }
        return python
    }

    private func chapters(_ file: String) throws -> [(start: Double, title: String)] {
        let r = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-show_chapters", "-of", "json", file], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return ((object?["chapters"] as? [[String: Any]]) ?? []).map {
            (Double($0["start_time"] as? String ?? "") ?? -1, ($0["tags"] as? [String: Any])?["title"] as? String ?? "")
        }
    }

    func testNotesReachSidecarsEventsReportChaptersAndExports() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/session.timeline", events = "\(dir)/events.jsonl"
        try """
            {"at": 0.2, "cmd": "note", "code": "Q", "text": "asked what the icon means"}
            {"at": 0.3, "cmd": "record"}
            {"at": 1.1, "cmd": "note", "code": "BUG", "text": "menu hides the \\"Pay\\" button, again"}
            {"at": 1.9, "cmd": "flag"}
            {"at": 2.4, "cmd": "stop"}
            {"at": 2.6, "cmd": "note", "code": "GOOD", "text": "between takes"}
            {"at": 2.8, "cmd": "record"}
            {"at": 3.5, "cmd": "note", "code": "PII", "text": "e-mail address on screen"}
            {"at": 4.1, "cmd": "stop"}
            {"at": 4.2, "cmd": "quit"}
            """.write(toFile: timeline, atomically: true, encoding: .utf8)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "480x270@30", "--countdown", "0",
                                  "--record-dir", dir, "--timeline", timeline, "--events", events, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        try assertEventsDocumented(events)
        let noteEvents = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["event"] as? String == "note" }
        XCTAssertEqual(noteEvents.map { $0["code"] as? String }, ["Q", "BUG", "FLAG", "GOOD", "PII"])
        XCTAssertEqual(noteEvents.map { $0["take"] as? Int }, [nil, 1, 1, nil, 2])

        // Each take's sidecar holds its notes; each file's chapters are its start and its notes, within a frame.
        let takes = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".mkv") }.sorted().map { "\(dir)/\($0)" }
        XCTAssertEqual(takes.count, 2)
        let expected = [["Take 1", "BUG: menu hides the \"Pay\" button, again", "FLAG"], ["Take 2", "PII: e-mail address on screen"]]
        for (i, take) in takes.enumerated() {
            let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: take))
            let notes = try XCTUnwrap(sidecar.notes)
            let read = try chapters(take)
            XCTAssertEqual(read.map(\.title), expected[i], take)
            XCTAssertEqual(read.first?.start, 0)
            for (chapter, note) in zip(read.dropFirst(), notes) {
                XCTAssertEqual(chapter.start, try XCTUnwrap(note.atSeconds), accuracy: 1.0 / 30, "\(chapter.title) in \(take)")
            }
            XCTAssertEqual(sidecar.chapters, read.count)
        }

        // The report: every note, with its take's file or none (the session's), counted by code.
        let report = try duoCapture(["report", dir, "--json"])
        XCTAssertEqual(report.status, 0, report.stderr)
        let notes = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["notes"] as? [String: Any])
        XCTAssertEqual((notes["list"] as? [[String: Any]])?.count, 5)
        XCTAssertEqual(notes["byCode"] as? [String: Int], ["Q": 1, "BUG": 1, "FLAG": 1, "GOOD": 1, "PII": 1])
        let html = try String(contentsOfFile: "\(dir)/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains("#t=") && html.contains("asked what the icon means"))

        // The exports, read back by OpenTimelineIO (and its CMX 3600 adapter) and Python's csv.
        for format in ["otio", "edl", "csv"] {
            let r = try duoCapture(["export", dir, "--format", format, "--out", "\(dir)/out.\(format)"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let check = try runToEnd(URL(fileURLWithPath: try Self.otioPython()), ["-c", """
            import csv, json, sys
            import opentimelineio as otio
            d = sys.argv[1]
            def clips(t):
                track = t.tracks[0]
                out = []
                for i, c in enumerate(track):
                    rec = track.range_of_child_at_index(i).start_time.value
                    out.append({"name": c.name, "frames": c.source_range.duration.value,
                                "markers": [[m.name, m.marked_range.start_time.value, m.color] for m in c.markers], "record": rec})
                return out
            otio_clips = clips(otio.adapters.read_from_file(d + "/out.otio"))
            edl_clips = clips(otio.adapters.read_from_file(d + "/out.edl", "cmx_3600", rate=30))
            rows = list(csv.DictReader(open(d + "/out.csv", newline="")))
            print(json.dumps({"otio": otio_clips, "edl": edl_clips, "csv": rows}))
            """, dir], timeout: 60)
        XCTAssertEqual(check.status, 0, check.stderr)
        let read = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let otioClips = try XCTUnwrap(read["otio"] as? [[String: Any]]), edlClips = try XCTUnwrap(read["edl"] as? [[String: Any]])
        XCTAssertEqual(otioClips.count, 2)
        XCTAssertEqual(edlClips.count, 2)
        for (i, take) in takes.enumerated() {
            let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: take))
            let frames = try (sidecar.notes ?? []).map { Double((try XCTUnwrap($0.atSeconds) * 30).rounded()) }
            let otioMarkers = try XCTUnwrap(otioClips[i]["markers"] as? [[Any]])
            XCTAssertEqual(otioClips[i]["name"] as? String, (take as NSString).lastPathComponent)
            XCTAssertEqual(otioClips[i]["frames"] as? Double, Double(sidecar.frames ?? 0))
            XCTAssertEqual(otioMarkers.map { $0[0] as? String }, Array(expected[i].dropFirst()))
            XCTAssertEqual(otioMarkers.map { $0[1] as? Double }, frames)
            // The EDL's locators are on the record timeline (from 01:00:00:00): the same frames within the take.
            let edlMarkers = try XCTUnwrap(edlClips[i]["markers"] as? [[Any]])
            let recordIn = try XCTUnwrap(edlClips[i]["record"] as? Double) + 3600 * 30
            XCTAssertEqual(edlMarkers.map { $0[0] as? String }, Array(expected[i].dropFirst()))
            XCTAssertEqual(edlMarkers.map { ($0[1] as? Double).map { $0 - recordIn } }, frames)
        }
        let rows = try XCTUnwrap(read["csv"] as? [[String: String]])
        XCTAssertEqual(rows.map { $0["code"] }, ["Q", "GOOD", "BUG", "FLAG", "PII"])
        XCTAssertEqual(rows.map { $0["take"] }, ["", "", "1", "1", "2"])
        XCTAssertEqual(rows[2]["text"], "menu hides the \"Pay\" button, again")

        // The MP4 remux keeps the chapters (in its index): the same titles and starts within
        // 1 ms, and the grown index still finds every frame (each chunk offset moved with the media).
        let remux = try duoCapture(["remux", takes[0]])
        XCTAssertEqual(remux.status, 0, remux.stderr)
        XCTAssertFalse(remux.stderr.contains("chapters"), remux.stderr)
        let mp4 = remux.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let inMKV = try chapters(takes[0]), inMP4 = try chapters(mp4)
        XCTAssertEqual(inMP4.map(\.title), inMKV.map(\.title))
        for (a, b) in zip(inMP4, inMKV) { XCTAssertEqual(a.start, b.start, accuracy: 0.001, a.title) }
        // ffprobe reads the QuickTime chapter track first; the chpl box beside it holds the same.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: mp4))
        defer { try? handle.close() }
        let moovBox = try XCTUnwrap(MP4Layout.topLevelBoxes(handle, size: try handle.seekToEnd())?.first { $0.type == "moov" })
        try handle.seek(toOffset: moovBox.offset)
        let chpl = MP4Chapters.read(moov: [UInt8](try XCTUnwrap(try handle.read(upToCount: Int(moovBox.length)))))
        XCTAssertEqual(chpl.map(\.title), inMKV.map(\.title))
        for (a, b) in zip(chpl, inMKV) { XCTAssertEqual(a.atSeconds, b.start, accuracy: 0.001, a.title) }
        func decodedFrames(_ file: String) throws -> String {
            let r = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                                       "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file], timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stderr, "", "\(file) decodes without an error")
            return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try decodedFrames(mp4), try decodedFrames(takes[0]))
        let inspect = try duoCapture(["inspect", mp4])
        XCTAssertEqual(inspect.status, 0, inspect.stderr + inspect.stdout)
        // The MP4 copy shares the take's sidecar and is the same take: an export counts it once.
        let again = try duoCapture(["export", dir, "--format", "csv", "--out", "\(dir)/again.csv"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try String(contentsOfFile: "\(dir)/again.csv", encoding: .utf8), try String(contentsOfFile: "\(dir)/out.csv", encoding: .utf8))
    }

    /// An MP4 take (`--container mp4`; mp4mux writes no chapters): at its end its index gains the take's
    /// start and its note (a chpl box and a QuickTime chapter track), and the file still decodes whole.
    func testAnMP4TakeWithANoteGetsItsChapters() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/mp4.timeline"
        try """
            {"at": 0.2, "cmd": "record"}
            {"at": 0.9, "cmd": "note", "code": "BUG", "text": "菜单遮住了按钮"}
            {"at": 1.6, "cmd": "stop"}
            {"at": 1.7, "cmd": "quit"}
            """.write(toFile: timeline, atomically: true, encoding: .utf8)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@25", "--countdown", "0", "--container", "mp4",
                                  "--audio", "test", "--record-dir", dir, "--timeline", timeline, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let take = "\(dir)/" + (try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".mp4") }))
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: take))
        let read = try chapters(take)
        XCTAssertEqual(read.map(\.title), ["Take 1", "BUG: 菜单遮住了按钮"])
        XCTAssertEqual(read.last?.start ?? -1, try XCTUnwrap(sidecar.notes?.first?.atSeconds), accuracy: 0.001)
        XCTAssertEqual(sidecar.chapters, 2)
        let frames = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames",
                                                                            "-of", "csv=p=0", take], timeout: 60)
        XCTAssertEqual(frames.stderr, "", "the take decodes without an error")
        // The third stream is the QuickTime chapter track (ffprobe shows it as data, as for ffmpeg's own).
        XCTAssertEqual(frames.stdout.split(separator: "\n").map { $0.split(separator: ",").first.map(String.init) }, ["video", "audio", "data"])
        XCTAssertEqual(Int64(frames.stdout.split(separator: "\n").first?.split(separator: ",").last ?? "") ?? 0, sidecar.frames ?? -1)
    }

    /// Chapters that cannot be added leave the MP4 as mp4mux wrote it, with one line saying so: a remux
    /// onto a size-limited tmpfs (in a private mount namespace) with room for the MP4 but not for its copy.
    func testARemuxWhoseChaptersDoNotFitKeepsAWholeMP4AndSaysSo() throws {
        let dir = try scratchDirectory(self)
        let rec = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@25", "--countdown", "0",
                                  "--record", "--duration", "1", "--record-dir", dir, "--quiet"])
        XCTAssertEqual(rec.status, 0, rec.stderr)
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".mkv") })
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: "\(dir)/\(name)")[.size] as? Int)
        let full = "\(dir)/full", kept = "\(dir)/kept"
        for folder in [full, kept] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        // The take, its MP4 (about as large) and half of that again: the copy with chapters runs out of space.
        let script = """
            mount -t tmpfs -o size=\(size * 5 / 2 / 4096 * 4 + 8)k duo-capture-full "\(full)" || exit 99
            cp "\(dir)/\(name)" "\(full)/" || exit 98
            "$0" "$@"; rc=$?
            ls -a "\(full)" >&2
            cp "\(full)"/*.mp4 "\(kept)"/ 2>/dev/null
            exit $rc
            """
        let unshare = getuid() == 0 ? ["/usr/bin/unshare", "-m"] : ["/usr/bin/unshare", "-r", "-m"]
        let run = try BackgroundRun(["remux", "\(full)/\(name)"], directory: dir, launcher: unshare + ["/bin/sh", "-c", script])
        let status = run.finish(timeout: 60)
        XCTAssertNotEqual(status, 99, "could not mount a size-limited tmpfs: \(run.stderr)")
        XCTAssertEqual(status, 0, run.stderr)
        let said = run.stderr.split(separator: "\n").filter { $0.hasPrefix("duo-capture:") }
        XCTAssertEqual(said.count, 1, run.stderr)
        XCTAssertTrue(said.first?.contains("has no chapters (no space left on the device") == true, run.stderr)
        XCTAssertFalse(run.stderr.contains(".chapters"), "no copy left behind: \(run.stderr)")
        let mp4 = "\(kept)/" + name.replacingOccurrences(of: ".mkv", with: ".mp4")
        XCTAssertEqual(try chapters(mp4).count, 0)
        let probe = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                                           "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", mp4], timeout: 60)
        XCTAssertEqual(probe.stderr, "", "the MP4 decodes without an error")
        XCTAssertEqual(Int64(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), try TakeSidecar.read(TakeSidecar.path(forTake: "\(dir)/\(name)")).frames)
    }

    /// A Matroska file without chapters (made by gst-launch, not duo-capture) remuxes to an MP4 without
    /// any: no chpl box, no chapter track, nothing said.
    func testARemuxOfAFileWithoutChaptersAddsNone() throws {
        let dir = try scratchDirectory(self)
        let mkv = "\(dir)/plain.mkv"
        let make = try runToEnd(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), ["-q", "videotestsrc", "num-buffers=15", "!", "video/x-raw,width=160,height=120",
                                                                               "!", "x264enc", "!", "h264parse", "!", "matroskamux", "!", "filesink", "location=\(mkv)"], timeout: 60)
        XCTAssertEqual(make.status, 0, make.stderr)
        let remux = try duoCapture(["remux", mkv])
        XCTAssertEqual(remux.status, 0, remux.stderr)
        XCTAssertEqual(remux.stderr, "")
        let mp4 = remux.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try chapters(mp4).count, 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: mp4))
        XCTAssertNil(bytes.range(of: Data("chpl".utf8)))
        XCTAssertNil(bytes.range(of: Data("chap".utf8)))
    }

    /// SIGKILL mid-take: the note is in the sidecar already, and the next start writes it into the file
    /// as a chapter (matroskamux writes a table of contents only in the file's head).
    func testAKilledTakeKeepsItsNoteAndTheNextStartWritesItsChapters() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/kill.timeline"
        try """
            {"at": 0.2, "cmd": "record"}
            {"at": 0.9, "cmd": "note", "code": "BUG", "text": "crashed right after this"}
            """.write(toFile: timeline, atomically: true, encoding: .utf8)
        let killed = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@25", "--countdown", "0",
                                        "--record-dir", dir, "--timeline", timeline, "--quiet"], directory: dir)
        var take = ""
        try killed.wait(for: "the note in the take's sidecar") {
            guard let name = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.first(where: { $0.hasSuffix(".json") && $0.hasPrefix("duo-") }),
                  let sc = try? TakeSidecar.read("\(dir)/\(name)"), sc.notes?.isEmpty == false else { return false }
            take = "\(dir)/\(sc.file)"
            return true
        }
        kill(killed.process.processIdentifier, SIGKILL)
        killed.process.waitUntilExit()
        XCTAssertEqual(try chapters(take).map(\.title), ["Take 1"], "before the next start: only the muxer's own chapter")
        let next = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@25", "--record-dir", dir, "--duration", "0.3"])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stderr.contains("cut short"), next.stderr)
        let read = try chapters(take)
        XCTAssertEqual(read.map(\.title), ["Take 1", "BUG: crashed right after this"])
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: take))
        XCTAssertEqual(read.last?.start ?? -1, try XCTUnwrap(sidecar.notes?.first?.atSeconds), accuracy: 1.0 / 25)
        XCTAssertEqual(sidecar.chapters, 2)
        XCTAssertFalse(sidecar.complete)
    }
}
