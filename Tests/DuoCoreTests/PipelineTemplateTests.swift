import DuoCore
import Foundation
import XCTest

final class PipelineTemplateTests: XCTestCase {
    func testCommentsAreDroppedAndPlaceholdersFilled() throws {
        let t = PipelineTemplate(name: "x.gst", text: "# a {{diagram}} comment\nvideotestsrc name={{name}}\n  ! fakesink\n")
        XCTAssertEqual(t.placeholders, ["name"])
        XCTAssertEqual(try t.render(["name": "cam"]), "videotestsrc name=cam ! fakesink")
    }

    func testUnknownPlaceholderNamesTheFile() {
        let t = PipelineTemplate(name: "Pipelines/x.gst", text: "queue ! {{encodr}}")
        XCTAssertThrowsError(try t.render(["encoder": "x264enc"])) { error in
            let e = error as! DuoError
            XCTAssertEqual(e.kind, .input)
            XCTAssertTrue(e.message.contains("Pipelines/x.gst") && e.message.contains("{{encodr}}"), e.message)
        }
        XCTAssertThrowsError(try PipelineTemplate(name: "e.gst", text: "# only a comment\n").render([:]))
        XCTAssertThrowsError(try PipelineTemplate(name: "u.gst", text: "queue ! {{oops").render([:]))
    }

    func testTakeNamesNeverOverwrite() {
        let naming = TakeNaming(directory: "/v", fileExtension: "mkv")
        let date = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC
        let utc = TimeZone(identifier: "UTC")!
        XCTAssertEqual(naming.path(take: 3, at: date, timeZone: utc) { _ in false }, "/v/duo-2027-01-15_080000-take03.mkv")
        var existing: Set<String> = ["/v/duo-2027-01-15_080000-take03.mkv", "/v/duo-2027-01-15_080000-take03-2.mkv"]
        let next = naming.path(take: 3, at: date, timeZone: utc) { existing.contains($0) }
        XCTAssertEqual(next, "/v/duo-2027-01-15_080000-take03-3.mkv")
        existing.insert(next)
        XCTAssertEqual(naming.path(take: 12, at: date, timeZone: utc) { existing.contains($0) }, "/v/duo-2027-01-15_080000-take12.mkv")
    }

    /// The packages we tell users to install must be the ones that ship each element on Debian 12.
    func testElementPackagesPinTheLikelyMistakes() {
        XCTAssertEqual(ElementPackages.package(for: "x264enc"), "gstreamer1.0-plugins-ugly")
        XCTAssertEqual(ElementPackages.package(for: "openh264enc"), "gstreamer1.0-plugins-bad")
        XCTAssertEqual(ElementPackages.package(for: "h264parse"), "gstreamer1.0-plugins-bad")
        XCTAssertEqual(ElementPackages.package(for: "avdec_h264"), "gstreamer1.0-libav")
        XCTAssertEqual(ElementPackages.package(for: "matroskamux"), "gstreamer1.0-plugins-good")
        XCTAssertEqual(ElementPackages.package(for: "videotestsrc"), "gstreamer1.0-plugins-base")
        XCTAssertEqual(ElementPackages.package(for: "gtksink"), "gstreamer1.0-gtk3")
        let e = ElementPackages.missingElementError("x264enc", neededFor: "recording")
        XCTAssertEqual(e.kind, .dependency)
        XCTAssertEqual(e.kind.exitCode, 69)
        XCTAssertTrue(e.message.contains("apt-get install gstreamer1.0-plugins-ugly"))
    }

    func testExitCodesAreDistinct() {
        let codes = DuoError.Kind.allCases.map(\.exitCode)
        XCTAssertEqual(Set(codes).count, codes.count)
        XCTAssertFalse(codes.contains(0))
    }
}
