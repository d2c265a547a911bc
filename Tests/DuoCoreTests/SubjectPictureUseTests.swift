import DuoCore
import XCTest

/// What of the subject's picture the graph must deliver: all of it only where it is seen as it is.
final class SubjectPictureUseTests: XCTestCase {
    func testOnlyWhatTheSubjectSeesIsPaidFor() {
        // Headless: the view is drawn into the frames.
        XCTAssertEqual(SubjectPictureUse.of(kind: .countdown, selfView: false, viewDrawnIntoFrames: true), .covered)
        XCTAssertEqual(SubjectPictureUse.of(kind: .teleprompter, selfView: false, viewDrawnIntoFrames: true), .covered)
        XCTAssertEqual(SubjectPictureUse.of(kind: .teleprompter, selfView: true, viewDrawnIntoFrames: true), .thumbnail)
        XCTAssertEqual(SubjectPictureUse.of(kind: .preview, selfView: false, viewDrawnIntoFrames: true), .shown)
        // The desktop: the subject window shows the graph's picture itself.
        XCTAssertEqual(SubjectPictureUse.of(kind: .countdown, selfView: true, viewDrawnIntoFrames: false), .shown)
        XCTAssertEqual(SubjectPictureUse.of(kind: .preview, selfView: false, viewDrawnIntoFrames: false), .shown)
        XCTAssertEqual(SubjectPictureUse.of(kind: .countdown, selfView: false, viewDrawnIntoFrames: false), .covered)
    }
}
