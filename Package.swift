// swift-tools-version:6.0
// duo-capture: layers point one way, top to bottom:
//
//   duo-capture (executable) ─▶ DuoCLI ─┬─▶ DuoDesktop ─▶ DuoRender ─▶ DuoCore (pure Swift, no C imports)
//                                       │       ├──▶ CGtk   ├──▶ CCairo (cairo, pangocairo)
//                                       │       │           └──▶ CQREncode (libqrencode: the pairing QR code)
//                                       │       └──▶ CDuoSession ─▶ CGtk (+ wayland-client, Xss, X11)
//                                       ├─▶ DuoMedia ─▶ DuoCore
//                                       │      └──▶ CDuoShim ─▶ CGStreamer (system library)
//                                       ├─▶ DuoPlatform ─▶ DuoCore
//                                       │      └──▶ CGLib (system library)
//                                       └─▶ DuoWebRemote ─▶ DuoPlatform (the web remote and OSC, on its network loop)
//                                              └──▶ CSoup (libsoup-3.0, system library)
//
//   duo-capture-testhub (tests, QA timelines, benchmarks; never installed) ─▶ DuoTestHub ─▶ DuoCLI …
//                                                                               └──▶ CDuoTestHub ─▶ CGStreamer
//
// DuoCore is the pure layer (models, the run's vocabulary, the HUD's figures, the run director's ports)
// and is tested with a manual clock; every gst_*/g_* call of the media lives in DuoMedia (and the CDuoShim C target for the macros,
// variadics and per-buffer streaming-thread probes Swift cannot express); every cairo_*/pango_* call
// lives in DuoRender (the subject view and the operator HUD); every gtk_*/gdk_* call lives in DuoDesktop,
// which has no cairo calls of its own (and the CDuoSession C target for what GTK 3 does not expose: the
// display's backend and Wayland output names, keeping the screen on through Wayland, X11 and D-Bus).
// DuoPlatform holds the raw GLib/POSIX that is not GStreamer (settings file, camera locks, the remote
// displays' handshake, exclusive file creation) and the one network loop every listener runs on
// (NetworkLoop: GSocket sources on one GLib context thread; the control socket, the handshake, OSC and the
// web remote's libsoup server; admission and rates by DuoCore's ListenPolicy). DuoCLI composes a run: the
// run director and its parts (one per feature, each owning its state), the real adapters behind DuoCore's
// ports, the control socket, the command line. Each C target has one header per concern in its include/,
// saying why that part is in C.
import PackageDescription

let package = Package(
    name: "duo-capture",
    products: [
        .executable(name: "duo-capture", targets: ["duo-capture"]),
    ],
    targets: [
        // System libraries, found through pkg-config (Debian: libgstreamer1.0-dev, libgstreamer-plugins-base1.0-dev).
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-video-1.0 gstreamer-app-1.0 gstreamer-pbutils-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        // C glue for DuoMedia: GStreamer macros, variadics and per-buffer streaming-thread probes Swift
        // cannot express (one file per concern; include/duo_shim.h lists them).
        .target(name: "CDuoShim", dependencies: ["CGStreamer"]),
        // Cairo and Pango for the subject view (Debian: libcairo2-dev, libpango1.0-dev).
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),

        // GTK3 for the desktop windows (Debian: libgtk-3-dev).
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk+-3.0",
            providers: [.apt(["libgtk-3-dev"])]
        ),

        // C glue for DuoDesktop, asking the display and the session what GTK 3 does not expose: the GDK
        // backend's name and Wayland output names (xdg-output); keeping the screen on (Wayland idle inhibit,
        // the X screen-saver extension, GNOME's session manager or org.freedesktop.ScreenSaver on the
        // session bus). One file per concern; include/duo_session.h lists them.
        .target(name: "CDuoSession", dependencies: ["CGtk"],
                linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("Xss"), .linkedLibrary("X11")]),

        .target(name: "DuoCore"),
        // GLib and GIO (Debian: libglib2.0-dev, which libgstreamer1.0-dev pulls in): the platform layer's key
        // files and HMAC, and the camera portal's D-Bus call (CameraPortal).
        .systemLibrary(name: "CGLib", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // The platform layer: raw GLib/POSIX that is not GStreamer. The settings file (GKeyFile), camera
        // owner locks, the remote displays' TCP handshake, exclusive file creation, and the network loop
        // (Network/: NetworkLoop, StreamListener, DatagramListener, UnixSocketFile).
        .target(name: "DuoPlatform", dependencies: ["DuoCore", "CGLib"]),
        // libsoup 3 (Debian: libsoup-3.0-dev) for the remote control's page and WebSocket.
        .systemLibrary(name: "CSoup", pkgConfig: "libsoup-3.0", providers: [.apt(["libsoup-3.0-dev"])]),
        // The remote control's network adapter (--remote-control, --osc): every soup_*/g_* call of the
        // page and WebSocket server, on DuoPlatform's network loop, and the OSC port (a DatagramListener).
        .target(name: "DuoWebRemote", dependencies: ["DuoCore", "DuoPlatform", "CSoup"]),
        .target(
            name: "DuoMedia",
            dependencies: ["DuoCore", "CDuoShim", "CGStreamer"],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        // The subject view: Cairo/Pango renderer, cached prompt strip and the I420 blend (hot loops: -Ounchecked).
        .target(
            name: "DuoRender",
            dependencies: ["DuoCore", "CCairo", "CQREncode"],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        // libqrencode (Debian: libqrencode-dev) for the web remote's pairing QR code; only DuoRender's
        // QRCodeEncoder calls it, and hands out a pure DuoCore `QRMatrix`.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Operator and subject windows, monitors and hotplug, fullscreen state, keys: every gtk_*/gdk_* call.
        .target(name: "DuoDesktop", dependencies: ["DuoCore", "DuoRender", "CGtk", "CDuoSession"]),
        .target(name: "DuoCLI", dependencies: ["DuoCore", "DuoMedia", "DuoRender", "DuoDesktop", "DuoPlatform", "DuoWebRemote"]),
        // Overlay cost benchmark (build with -c release): Benchmarks/overlay-cost.sh runs it.
        .executableTarget(name: "duo-bench-overlay", dependencies: ["DuoRender", "DuoCore"], path: "Benchmarks/duo-bench-overlay"),
        // Seeded fuzz run of the parsers (Benchmarks/fuzz.sh runs it for a bounded time).
        .executableTarget(name: "duo-fuzz", dependencies: ["DuoCore"], path: "Benchmarks/duo-fuzz"),
        .executableTarget(name: "duo-capture", dependencies: ["DuoCLI"]),
        // The test hub (test cameras, benchmark frame codes, fault commands) and duo-capture with it
        // registered: for the test suite, QA timelines and Benchmarks/ only. Never installed or packaged.
        .target(name: "CDuoTestHub", dependencies: ["CGStreamer"]),
        .target(name: "DuoTestHub", dependencies: ["DuoCLI", "DuoMedia", "DuoCore", "CDuoTestHub", "CGStreamer"]),
        .executableTarget(name: "duo-capture-testhub", dependencies: ["DuoCLI", "DuoTestHub"]),

        .testTarget(name: "DuoCoreTests", dependencies: ["DuoCore"], exclude: ["Fixtures"]),
        .testTarget(name: "DuoMediaTests", dependencies: ["DuoMedia", "DuoCore"]),
        // The platform layer: camera locks, and the network loop's listeners on loopback (the handshake
        // server, streams, datagrams over IPv4 and IPv6).
        .testTarget(name: "DuoPlatformTests", dependencies: ["DuoPlatform", "DuoCore"]),
        // The web remote's server and the OSC port on the network loop, driven by real sockets.
        .testTarget(name: "DuoWebRemoteTests", dependencies: ["DuoWebRemote", "DuoPlatform", "DuoCore"]),
        .testTarget(name: "DuoCLITests", dependencies: ["DuoCLI", "DuoMedia", "DuoRender", "DuoCore", "DuoTestHub", "DuoPlatform", "DuoWebRemote"]),
        // End to end on a real two-monitor X desktop (Xorg + dummy driver + openbox), driving the binary.
        .testTarget(name: "DuoDesktopTests", dependencies: ["DuoDesktop", "DuoCore"], exclude: ["Fixtures"]),
        .testTarget(name: "DuoRenderTests", dependencies: ["DuoRender", "DuoCore"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
