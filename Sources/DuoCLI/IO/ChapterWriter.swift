import DuoCore
import Foundation

/// Writes a finished (or killed) Matroska take's chapters in place with `mkvpropedit` (mkvtoolnix):
/// matroskamux writes a GstToc only into the file's head, before the first frame, so the chapters of the
/// notes made during the take are added once the file is closed (and, after a crash, at the next start,
/// from the sidecar).
///
/// Thread: any; synchronous (one short process, ~0.2 s).
enum ChapterWriter {
    /// Nil when written, else a one-line reason saying what to do.
    static func write(_ chapters: [TakeChapter], lengthSeconds: Double, into file: String) -> String? {
        guard let tool = ["/usr/bin/mkvpropedit", "/usr/local/bin/mkvpropedit"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return tr("mkvpropedit is missing; install the Debian package mkvtoolnix to put the notes' chapters into %s (its sidecar has them)", (file as NSString).lastPathComponent)
        }
        let xml = FileManager.default.temporaryDirectory.appendingPathComponent("duo-chapters-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: xml) }
        do { try Data(TakeChapter.matroskaXML(chapters, lengthSeconds: lengthSeconds).utf8).write(to: xml) } catch {
            return tr("cannot write the chapters of %s: %s", (file as NSString).lastPathComponent, WriteProblem.describe(error, folder: tr("the temporary folder")))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--quiet", file, "--chapters", xml.path]
        let errors = Pipe()
        process.standardOutput = errors
        process.standardError = errors
        do { try process.run() } catch { return tr("cannot run %s: %s", tool, error.localizedDescription) }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 || process.terminationStatus == 1 else {
            let line = said.split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)"
            return tr("the chapters of %s were not written (mkvpropedit: %s); its sidecar has the notes", (file as NSString).lastPathComponent, line)
        }
        return nil
    }

    /// Takes of `folder` killed mid-take (sidecar `complete` false) with notes whose chapters were never
    /// written: their chapters from the sidecar. Returns the files done and the problems met.
    static func recover(in folder: String) -> (done: [String], problems: [String]) {
        var done: [String] = [], problems: [String] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        for name in names where !name.hasPrefix(".") {
            let sidecarPath = (folder as NSString).appendingPathComponent(name)
            guard let sc = try? TakeSidecar.read(sidecarPath), !sc.complete, sc.chapters == nil,
                  let notes = sc.notes, !notes.isEmpty, sc.container == "matroskamux" else { continue }
            let file = (folder as NSString).appendingPathComponent(sc.file)
            guard FileManager.default.fileExists(atPath: file) else { continue }
            let chapters = TakeChapter.of(take: sc.take, shot: sc.shot, notes: notes)
            if let problem = write(chapters, lengthSeconds: (notes.compactMap(\.atSeconds).max() ?? 0) + 1, into: file) {
                problems.append(problem)
                continue
            }
            var updated = sc
            updated.chapters = chapters.count
            do throws(DuoError) { try updated.write(nextTo: file) } catch { problems.append(error.message) }
            done.append(file)
        }
        return (done, problems)
    }
}
