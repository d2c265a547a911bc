import DuoCore
import DuoMedia
import Foundation
import XCTest

/// The contract between the code and Pipelines/: every element name the code looks up is defined where
/// GraphElement says, and every element the files use has its Debian package in ElementPackages, checked
/// against the package that really ships the installed plugin.
final class PipelineContractTests: XCTestCase {
    private func files() throws -> [String: PipelineTemplate] {
        let dir = library().directory
        var out: [String: PipelineTemplate] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where name.hasSuffix(".gst") {
            let file = String(name.dropLast(4))
            out[file] = try library().template(file)
        }
        return out
    }

    func testEveryFileDefinesTheNamesTheCodeLooksUp() throws {
        let templates = try files()
        for element in GraphElement.allCases {
            for (file, spelled) in element.definedIn {
                let template = try XCTUnwrap(templates[file], "Pipelines/\(file).gst is missing")
                XCTAssertTrue(GraphElement.defines(template.body, spelled), "\(file).gst does not name \(spelled)")
            }
        }
        // The check itself tells a name from a longer one that starts with it.
        XCTAssertFalse(GraphElement.defines("tee name=att ! queue", "at"))
        XCTAssertTrue(GraphElement.defines("tee name=at ! queue", "at"))
    }

    /// The code looks elements of Pipelines/ up through GraphElement only: no name written out in a
    /// `child(named: "…")` (MediaInspector's and JoinedFileCheck's own decoding graphs, written in Swift,
    /// name their own elements).
    func testTheCodeLooksElementsUpThroughTheContractOnly() throws {
        XCTAssertEqual(GraphElement.cameraSource.forCamera(1), "camera_b")
        XCTAssertEqual(GraphElement.cameraRotate.forCamera(1), "camera_b_rotate")
        XCTAssertEqual(GraphElement.cameraCaps.forCamera(0), "camera_caps")
        XCTAssertEqual(GraphElement.remoteView.forRemote(2), "remote2_view")
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        var literal: [String] = []
        for folder in ["DuoMedia", "DuoCLI", "DuoCore"] {
            let dir = sources.appendingPathComponent(folder)
            // Recursive: each target keeps its files in sub-folders by concern.
            let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
            XCTAssertFalse(files.isEmpty, "no sources under \(dir.path)")
            for file in files where file.hasSuffix(".swift") && !["MediaInspector.swift", "JoinedFileCheck.swift"].contains((file as NSString).lastPathComponent) {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("child(named: \"") {
                    literal.append("\(folder)/\(file):\(n + 1)")
                }
            }
        }
        XCTAssertEqual(literal, [], "element names written out instead of GraphElement")
    }

    func testEveryElementHasItsDebianPackage() throws {
        var elements = Set(["tee", "input-selector"])   // written by the code around the files
        for template in try files().values {
            for e in GStreamer.elementNames(in: template.body) where !e.hasPrefix("{{") { elements.insert(e) }
        }
        XCTAssertTrue(elements.contains("valve") && elements.contains("gtksink") && elements.contains("x264enc"), "\(elements.sorted())")
        var checked = 0
        for element in elements.sorted() {
            guard let package = ElementPackages.table[element] else {
                XCTFail("\(element) has no Debian package in ElementPackages.table"); continue
            }
            // Installed: the package that owns its plugin file must be the one we name.
            guard let plugin = pluginFile(of: element) else { continue }
            let owner = try shell("/usr/bin/dpkg", ["-S", plugin]).split(separator: ":").first.map(String.init) ?? ""
            XCTAssertEqual(owner, package, "\(element) comes from \(plugin)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 15, "most elements are installed on the test machine and checked")
    }

    private func pluginFile(of element: String) -> String? {
        guard let out = try? shell("/usr/bin/gst-inspect-1.0", [element]) else { return nil }
        for line in out.split(separator: "\n") where line.contains("Filename") {
            // dpkg knows the file under /usr/lib (the merged /lib is a link).
            let path = line.split(separator: " ").last.map(String.init) ?? ""
            return path.hasPrefix("/lib/") ? "/usr" + path : path
        }
        return nil
    }

    private func shell(_ tool: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw DuoError.runtime("\(tool) failed") }
        return String(decoding: data, as: UTF8.self)
    }
}
