@testable import DuoCLI
import DuoCore
import DuoMedia
import XCTest

/// `--audio VALUE` as a microphone's name or identity, against a given list (no device needed): what
/// is a name and what is a GStreamer description, the one-line errors, the remembered microphone, and
/// what the settings file may hold.
final class MicrophoneChoiceTests: XCTestCase {
    private let mics = [DiscoveredMicrophone(name: "Built-in Audio Analog Stereo", identity: "alsa_input.pci-0000_00_1f.3.analog-stereo", isPipeWire: true),
                        DiscoveredMicrophone(name: "USB Mic", identity: "alsa_input.usb-Blue_Yeti", isPipeWire: true)]

    func testANameIsWhatStartsWithNoElement() {
        let elements: Set<String> = ["pulsesrc", "audiotestsrc", "alsasrc"]
        XCTAssertTrue(MicrophoneChoice.namesMicrophone("Built-in Audio Analog Stereo") { elements.contains($0) })
        XCTAssertTrue(MicrophoneChoice.namesMicrophone("id:alsa_input.usb-Blue_Yeti") { elements.contains($0) })
        XCTAssertFalse(MicrophoneChoice.namesMicrophone("pulsesrc device=x") { elements.contains($0) })
        XCTAssertFalse(MicrophoneChoice.namesMicrophone("audiotestsrc ! identity") { elements.contains($0) })
        XCTAssertFalse(MicrophoneChoice.namesMicrophone("weird ! pipeline") { _ in false }, "a pipeline is never a name")
    }

    func testANameOrIdentityPicksItsMicrophoneAndAnUnknownOneListsThem() throws {
        XCTAssertEqual(try MicrophoneChoice.resolve("usb mic", list: { self.mics }, daemonProblem: { nil }),
                       .microphone(node: "alsa_input.usb-Blue_Yeti", label: "USB Mic"))
        XCTAssertEqual(try MicrophoneChoice.resolve("id:alsa_input.usb-Blue_Yeti", list: { self.mics }, daemonProblem: { nil }),
                       .microphone(node: "alsa_input.usb-Blue_Yeti", label: "USB Mic"))
        XCTAssertThrowsError(try MicrophoneChoice.resolve("id:USB Mic", list: { self.mics }, daemonProblem: { nil }), "id: is the identity only")
        do {
            _ = try MicrophoneChoice.resolve("Studio", list: { self.mics }, daemonProblem: { nil })
            XCTFail("no microphone called Studio")
        } catch {
            XCTAssertEqual(error.kind.exitCode, 64)
            XCTAssertEqual(error.message, "--audio \"Studio\": no such microphone; there are: \"Built-in Audio Analog Stereo\" (id:alsa_input.pci-0000_00_1f.3.analog-stereo), \"USB Mic\" (id:alsa_input.usb-Blue_Yeti) (duo-capture microphones lists them)")
        }
        do {
            _ = try MicrophoneChoice.resolve("USB Mic", list: { self.mics }, daemonProblem: { "nothing listens at /run/user/0/pipewire-0" })
            XCTFail("no daemon")
        } catch {
            XCTAssertEqual(error.kind.exitCode, 64)
            XCTAssertTrue(error.message.contains("no PipeWire daemon is running (nothing listens at /run/user/0/pipewire-0)"), error.message)
        }
    }

    func testTheRememberedMicrophoneIsTakenOnlyWhenItIsThere() {
        XCTAssertEqual(MicrophoneChoice.remembered("alsa_input.usb-Blue_Yeti", list: { self.mics }, daemonProblem: { nil }),
                       .microphone(node: "alsa_input.usb-Blue_Yeti", label: "USB Mic"))
        XCTAssertNil(MicrophoneChoice.remembered("gone", list: { self.mics }, daemonProblem: { nil }))
        XCTAssertNil(MicrophoneChoice.remembered("alsa_input.usb-Blue_Yeti", list: { self.mics }, daemonProblem: { "no daemon" }))
        XCTAssertNil(MicrophoneChoice.remembered(nil, list: { self.mics }, daemonProblem: { nil }))
    }

    func testTheSettingsFileTakesAMicrophonesIdentityButNoPipeline() {
        XCTAssertTrue(SettingsDefaults.isSafeAudioSetting("id:alsa_input.usb-Blue_Yeti"))
        XCTAssertFalse(SettingsDefaults.isSafeAudioSetting("id:"))
        XCTAssertFalse(SettingsDefaults.isSafeAudioSetting("id:x ! fakesink"))
    }
}
