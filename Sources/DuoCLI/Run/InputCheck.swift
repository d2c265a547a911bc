import DuoCore
import Foundation

/// The run's input files read once before any device is opened (issue 37): a bad script, display profile
/// or camera profile is a one-line error that comes first, before any line about the camera, PipeWire or
/// the microphone. (The timeline and the shot list are read while the options are parsed.) What is read
/// here is read again where it is used; reading a script twice costs milliseconds.
///
/// Thread: main task at start-up; synchronous.
enum InputCheck {
    static func run(_ options: Options) throws(DuoError) {
        if let path = options.subject.scriptPath {
            _ = try ScriptParser.load(path: path)
        } else if options.subject.accessory == .teleprompter {
            throw .usage(.text("--accessory teleprompter needs --script FILE (a .txt or .md script); or use --accessory countdown, preview or off"))
        }
        if let path = options.subject.displayProfilePath { _ = try DisplayProfile.load(path: path) }
        if let path = options.desktop.operatorDisplayPath {
            do throws(DuoError) { _ = try DisplayProfile.load(path: path) } catch {
                throw DuoError(error.kind, .text("--operator-display: %s", error.said))
            }
        }
        for choice in [options.source] + (options.secondSource.map { [$0] } ?? []) {
            if case .profile(let nameOrPath) = choice { _ = try SessionSetup.loadProfile(nameOrPath) }
        }
    }
}
