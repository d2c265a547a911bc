import Foundation
import XCTest

/// Every program the tests start comes from a package that `Scripts/install-deps.sh` installs, by name or as
/// a dependency of one it names. A fresh Debian 12 machine has only what that script installs, so a program
/// that happens to be on the developer's machine (as `gst-discoverer-1.0` was) would pass here and fail there.
///
/// "Start" is read from the sources, as a reviewer would: program names at the call sites of the tests'
/// runners (`runTool("…"`, `run("…"`, `launch("…"`, `executableURL = …("/usr/bin/…")`, any `"…-1.0"`, any
/// `"/usr/bin/…"`), the commands of `subprocess` in the tests' Python fixtures, and the commands of the shell
/// scripts the tests run. Debian answers the rest: `dpkg -S` gives a program's package, and
/// `apt-cache depends --recurse --installed` what the named packages pull in.
final class ToolInventoryTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shell scripts that tests run, whose commands are the tests' programs too.
    static let scriptsTestsRun = ["Scripts/virtual-desktop.sh", "Scripts/install.sh", "Scripts/build-deb.sh"]

    func testEveryProgramTheTestsStartIsInstalledByInstallDeps() throws {
        let programs = try ToolInventory.programsTheTestsStart(root: Self.root, scripts: Self.scriptsTestsRun)
        // The inventory itself must see the programs we know the tests start; an empty or short list would
        // make this test pass by reading nothing.
        for known in ["gst-launch-1.0", "tesseract", "xdotool", "sway", "espeak-ng", "Xorg", "zbarimg", "pw-cli"] {
            XCTAssertTrue(programs.keys.contains(known), "the inventory misses \(known); its patterns no longer read the tests")
        }
        let named = try ToolInventory.packagesNamed(in: Self.root.appendingPathComponent("Scripts/install-deps.sh"))
        let gaps = try ToolInventory.uncovered(programs, named: named)
        XCTAssertEqual(gaps, [], "programs the tests start that Scripts/install-deps.sh neither names nor pulls in:\n"
                       + gaps.map { "  \($0)" }.joined(separator: "\n"))
    }

    /// The check can fail: with a package taken out of the script's list, the program it gives is reported,
    /// and a program no package on this machine provides is reported as not installed.
    func testAProgramFromAPackageTheScriptDoesNotNameIsReported() throws {
        var named = try ToolInventory.packagesNamed(in: Self.root.appendingPathComponent("Scripts/install-deps.sh"))
        XCTAssertTrue(named.contains("tesseract-ocr"))
        named.remove("tesseract-ocr")
        named.remove("tesseract-ocr-eng")
        let absent = "gst-nothing" + "-1.0"   // spelled in two, so no reader of this file takes it for a program
        let programs = ["tesseract": ["Tests/a.swift"], absent: ["Tests/b.swift"], "ls": ["Tests/c.swift"]]
        let gaps = try ToolInventory.uncovered(programs, named: named)
        XCTAssertEqual(gaps.count, 2, "\(gaps)")
        XCTAssertTrue(gaps.contains { $0.hasPrefix("tesseract (package tesseract-ocr") }, "\(gaps)")
        XCTAssertTrue(gaps.contains { $0.hasPrefix("gst-nothing-1.0 (not installed") }, "\(gaps)")
    }

    func testTheCallSitesAreRead() {
        let swift = #"""
        let a = try runTool("gst-discoverer-1.0", [file])
        p.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        try desktop.run("xdotool", ["key", "space"])
        let s = "not a program"
        """#
        XCTAssertEqual(Set(ToolInventory.programs(inSwift: swift)), ["gst-discoverer-1.0", "zbarimg", "xdotool"])
        XCTAssertEqual(ToolInventory.programs(inPython: #"subprocess.run(["espeak-ng", "-s", "160"], check=True)"#),
                       ["espeak-ng"])
        let shell = "mkdir -p x\n  xrandr --output A | grep B && openbox --sm-disable &\nfoo=$(swaymsg -t x)\n"
        XCTAssertEqual(ToolInventory.programs(inShell: shell), ["mkdir", "xrandr", "grep", "openbox", "swaymsg"])
    }
}

/// Reads which programs the tests start and which Debian packages cover them. Test support only.
enum ToolInventory {
    /// Program name → the files that start it.
    static func programsTheTestsStart(root: URL, scripts: [String]) throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        func add(_ names: [String], _ file: String) { for n in names { found[n, default: []].append(file) } }
        let files = FileManager.default.enumerator(at: root.appendingPathComponent("Tests"), includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            if url.lastPathComponent == "ToolInventoryTests.swift" { continue }   // its examples start nothing
            switch url.pathExtension {
            case "swift": add(programs(inSwift: try String(contentsOf: url, encoding: .utf8)), relative)
            case "py": add(programs(inPython: try String(contentsOf: url, encoding: .utf8)), relative)
            case "sh": add(programs(inShell: try String(contentsOf: url, encoding: .utf8)), relative)
            default: break
            }
        }
        for script in scripts {
            add(programs(inShell: try String(contentsOf: root.appendingPathComponent(script), encoding: .utf8)), script)
        }
        return found
    }

    static func programs(inSwift text: String) -> [String] {
        let patterns = [
            #"(?:runTool|run|launch|shell)\("(?:/usr)?(?:/s?bin/)?([A-Za-z][A-Za-z0-9._+-]*)""#,
            #"fileURLWithPath: "/(?:usr/)?s?bin/([A-Za-z][A-Za-z0-9._+-]*)""#,
            #""(?:/usr/s?bin/|/s?bin/)([A-Za-z][A-Za-z0-9._+-]*)""#,
            #""([a-z][a-z0-9._-]*-1\.0)""#,
        ]
        return unique(patterns.flatMap { matches(of: $0, in: text) })
    }

    static func programs(inPython text: String) -> [String] {
        unique(matches(of: #"subprocess\.(?:run|call|check_call|check_output|Popen)\(\s*\[\s*"([A-Za-z][A-Za-z0-9._+-]*)""#, in: text)
               + matches(of: #"shutil\.which\("([A-Za-z][A-Za-z0-9._+-]*)"\)"#, in: text))
    }

    /// The first word of each command: at a line's start, or after `|`, `&&`, `||`, `;`, `$(`, `then`,
    /// `do`, `else`, and the program a wrapper (`env …`, `setpriv …`, `sudo`, `timeout N`) runs.
    static func programs(inShell text: String) -> [String] {
        var names: [String] = []
        let wrappers: Set<String> = ["env", "setpriv", "sudo", "exec", "timeout", "nice", "command"]
        let keywords: Set<String> = ["if", "then", "else", "elif", "fi", "do", "done", "for", "while", "until", "case",
                                     "esac", "in", "function", "return", "local", "export", "unset", "echo", "printf",
                                     "cd", "set", "shift", "eval", "trap", "exit", "read", "true", "false", "wait",
                                     "source", "declare", "break", "continue", "!", "[[", "]]", "[", "{", "}", "(", ")"]
        for line in text.split(separator: "\n") {
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            var spaced = code
            for sep in ["&&", "||", "$(", "|", ";", "&", "`", "(", ")"] { spaced = spaced.replacingOccurrences(of: sep, with: " \n ") }
            for command in spaced.split(separator: "\n") {
                var words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                while let w = words.first, keywords.contains(w) || w.contains("=") && !w.hasPrefix("-") { words.removeFirst() }
                guard var word = words.first else { continue }
                if wrappers.contains(word) {
                    words.removeFirst()
                    while let w = words.first, w.hasPrefix("-") || w.contains("=") || Double(w) != nil { words.removeFirst() }
                    guard let next = words.first else { continue }
                    word = next
                }
                word = word.split(separator: "/").last.map(String.init) ?? word
                if word.range(of: #"^[A-Za-z][A-Za-z0-9._+-]*$"#, options: .regularExpression) != nil, !keywords.contains(word) {
                    names.append(word)
                }
            }
        }
        return unique(names)
    }

    /// The package names in `packages=(…)` and `packages+=(…)` of install-deps.sh.
    static func packagesNamed(in script: URL) throws -> Set<String> {
        let text = try String(contentsOf: script, encoding: .utf8)
        var named = Set<String>()
        for list in matches(of: #"packages\+?=\(([^)]*)\)"#, in: text) {
            for word in list.split(whereSeparator: { $0.isWhitespace }) where !word.hasPrefix("#") {
                named.insert(String(word))
            }
        }
        return named
    }

    /// One line per program not covered: "NAME (package P, started by FILES)" or "NAME (not installed …)".
    static func uncovered(_ programs: [String: [String]], named: Set<String>) throws -> [String] {
        let pulledIn = try dependencyClosure(of: named)
        var gaps: [String] = []
        let paths = programs.keys.reduce(into: [String: String]()) { found, name in
            found[name] = ["/usr/bin", "/usr/sbin", "/bin", "/sbin"].map { "\($0)/\(name)" }
                .first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        let owners = owners(of: Array(paths.values))
        for (name, files) in programs.sorted(by: { $0.key < $1.key }) where name != "duo-capture" {
            let by = Set(files).sorted().joined(separator: ", ")
            guard let path = paths[name] ?? nil else {
                // A shell word that is no program (a function, a variable's value) is not installed either;
                // only the Swift and Python call sites name programs for certain.
                if by.contains(".swift") || by.contains(".py") {
                    gaps.append("\(name) (not installed: name its Debian package in Scripts/install-deps.sh; started by \(by))")
                }
                continue
            }
            guard let package = owners[path] else { continue }   // made by a maintainer script, owned by no package
            if essential(package) || named.contains(package) || pulledIn.contains(package) { continue }
            gaps.append("\(name) (package \(package), started by \(by))")
        }
        return gaps
    }

    /// Each path's package, by `dpkg -S` of the path, of where its links lead (alternatives such as
    /// `import`), and of its name before Debian 12 merged /bin into /usr/bin. One dpkg call for all.
    static func owners(of paths: [String]) -> [String: String] {
        var aliases: [String: String] = [:]   // a name dpkg may know → the program's path
        for path in paths {
            var names = [path, URL(fileURLWithPath: path).resolvingSymlinksInPath().path]
            if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                names.append(link.hasPrefix("/") ? link
                             : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(link).standardized.path)
            }
            for name in names {
                aliases[name] = path
                if name.hasPrefix("/usr/bin/") { aliases["/bin/" + name.dropFirst(9)] = path }
                if name.hasPrefix("/usr/sbin/") { aliases["/sbin/" + name.dropFirst(10)] = path }
            }
        }
        // dpkg -S exits non-zero when any name is unowned, and still prints the owned ones.
        let out = (try? output("/usr/bin/dpkg", ["-S"] + aliases.keys.sorted(), failOK: true)) ?? ""
        var owners: [String: String] = [:]
        for line in out.split(separator: "\n") {
            guard let colon = line.range(of: ": ") else { continue }
            let file = String(line[colon.upperBound...]), package = line[..<colon.lowerBound]
            guard let path = aliases[file], let first = package.split(separator: ",").first else { continue }
            owners[path] = String(first.split(separator: ":").first ?? first).trimmingCharacters(in: .whitespaces)
        }
        return owners
    }

    static func essential(_ package: String) -> Bool {
        guard let out = try? output("/usr/bin/dpkg-query", ["-W", "-f=${Essential} ${Priority}", package]) else { return false }
        return out.hasPrefix("yes") || out.hasSuffix(" required") || out.hasSuffix(" important")
    }

    /// What the named packages pull in through Depends and Pre-Depends, among the installed packages.
    static func dependencyClosure(of named: Set<String>) throws -> Set<String> {
        let out = try output("/usr/bin/apt-cache", ["depends", "--recurse", "--installed", "--no-recommends", "--no-suggests",
                                                    "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"]
                             + named.sorted())
        var closure = Set<String>()
        for line in out.split(separator: "\n") {
            // "pkg", "  Depends: dep", " |Depends: alternative", "  PreDepends: dep", "    provider-of-virtual"
            var name = line.trimmingCharacters(in: CharacterSet(charactersIn: " |"))
            for field in ["PreDepends: ", "Depends: "] where name.hasPrefix(field) { name = String(name.dropFirst(field.count)) }
            name = name.trimmingCharacters(in: CharacterSet(charactersIn: " <>"))
            if let arch = name.firstIndex(of: ":") { name = String(name[..<arch]) }   // "libc6:amd64"
            if !name.isEmpty { closure.insert(name) }
        }
        return closure
    }

    static func output(_ tool: String, _ arguments: [String], failOK: Bool = false) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 || failOK else { throw CocoaError(.fileReadUnknown) }
        return String(decoding: data, as: UTF8.self)
    }

    static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
