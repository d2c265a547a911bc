import DuoCore
import XCTest

/// Which files of a takes' folder are takes: a remuxed MP4 beside its Matroska take is the same take.
final class TakeFilesTests: XCTestCase {
    func testAnMP4CopyBesideItsMatroskaTakeIsLeftOut() {
        let names = ["duo-1-take01.mkv", "duo-1-take01.mp4", "duo-1-take01-2.mp4", "duo-1-take01.json", "report.html",
                     "duo-1-take02.mp4", "duo-1-take02-2.mkv", "duo-1-take03-x.mp4", "duo-1-take03-.mp4", "duo-1-take03.mkv"]
        XCTAssertEqual(TakeNaming.takeFiles(among: names),
                       ["duo-1-take01.mkv", "duo-1-take02-2.mkv", "duo-1-take02.mp4", "duo-1-take03-.mp4", "duo-1-take03-x.mp4", "duo-1-take03.mkv"])
    }

    func testMP4TakesWithoutAMatroskaTwinAreTakes() {
        XCTAssertEqual(TakeNaming.takeFiles(among: ["b.mp4", "a.mp4", "a-2.mp4"]), ["a-2.mp4", "a.mp4", "b.mp4"])
    }
}
