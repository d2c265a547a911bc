import Foundation
import XCTest

/// A fresh folder for one test's files, removed afterwards.
func temporaryDirectory(_ test: XCTestCase) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-capture-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    return dir.path
}
