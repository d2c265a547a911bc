import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Puts chapters into a finished MP4 (a remuxed take, an MP4 take) as a Nero `chpl` box in its index and
/// a QuickTime chapter track (MP4Chapters does the byte work): the file is copied once beside itself
/// (`.NAME.chapters`) with the larger index and the track's titles at its end, and renamed over it, so a
/// failure at any point leaves the MP4 as mp4mux wrote it.
///
/// Thread: any; synchronous (one copy of the file).
enum MP4ChapterWriter {
    /// Nil when written, or when there is nothing to write; else one line saying the MP4 has no
    /// chapters, why, and that it still plays.
    static func write(_ chapters: [TakeChapter], into file: String) -> String? {
        guard !chapters.isEmpty else { return nil }
        let name = (file as NSString).lastPathComponent
        func failed(_ why: String) -> String {
            tr("%s has no chapters (%s); the MP4 plays as it is and the take's sidecar has the notes", name, why)
        }
        guard let input = FileHandle(forReadingAtPath: file) else { return failed(tr("it cannot be read")) }
        defer { try? input.close() }
        guard let size = try? input.seekToEnd(), let boxes = MP4Layout.topLevelBoxes(input, size: size),
              let moov = boxes.first(where: { $0.type == "moov" }), boxes.filter({ $0.type == "moov" }).count == 1,
              moov.length < 256 << 20 else {
            return failed(tr("its index, the moov box, cannot be read"))
        }
        if boxes.contains(where: { $0.type == "moof" }) { return failed(tr("it is a fragmented MP4")) }
        let index: [UInt8]
        do {
            try input.seek(toOffset: moov.offset)
            index = [UInt8](try input.read(upToCount: Int(moov.length)) ?? Data())
        } catch {
            return failed(tr("its index, the moov box, cannot be read"))
        }
        let rewrite: MP4Chapters.Rewrite
        do throws(MP4Chapters.Problem) { rewrite = try MP4Chapters.rewrite(moov: index, endingAt: moov.end, fileSize: size, adding: chapters) } catch {
            let why = switch error {
            case .notAMovieIndex: tr("its index, the moov box, cannot be read")
            case .fragmented: tr("it is a fragmented MP4")
            case .offsetsOverflow: tr("its 32-bit chunk offsets would pass 4 GiB")
            }
            return failed(why)
        }
        let folder = (file as NSString).deletingLastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(".\(name).chapters")
        do {
            try? FileManager.default.removeItem(atPath: temporary)
            guard FileManager.default.createFile(atPath: temporary, contents: nil), let output = FileHandle(forWritingAtPath: temporary) else {
                throw CocoaError(.fileWriteNoPermission)
            }
            defer { try? output.close() }
            try copy(input, from: 0, to: moov.offset, into: output)
            try output.write(contentsOf: rewrite.moov)
            try copy(input, from: moov.end, to: size, into: output)
            try output.write(contentsOf: rewrite.appendix)
            try output.synchronize()
            guard rename(temporary, file) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            return failed(WriteProblem.describe(error, folder: folder.isEmpty ? "." : folder))
        }
        return nil
    }

    /// Copies bytes `from..<to` of `input` to the end of `output`, 4 MiB at a time.
    private static func copy(_ input: FileHandle, from: UInt64, to: UInt64, into output: FileHandle) throws {
        try input.seek(toOffset: from)
        var left = to - from
        while left > 0 {
            guard let chunk = try input.read(upToCount: Int(min(left, 4 << 20))), !chunk.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
            try output.write(contentsOf: chunk)
            left -= UInt64(chunk.count)
        }
    }
}
