// swift-tools-version: 6.0
import PackageDescription

// Module map (folders under Sources/ are the architecture):
//   TrellisModel     value model: sizes, traits, styles, controller ids, action values (only TrellisJSON)
//   TrellisJSON      JSON reader that keeps positions, shared by scenario, trace files and action values
//   TrellisTrace     the trace's hot path and event model: events, messages and their one schema,
//                    canonical text, the recorder (what the runtime needs at run time)
//   TrellisTraceFiles the trace's files and tools: both capture codecs, file reader and writer,
//                    diffs, merge, filters, Perfetto and sequence-diagram exports
//   CTrellisPrefetch the processor's cache prefetch, which Swift cannot express (one inline C function)
//   TrellisRuntime   controllers as actors, behaviours, the router, windows, mailboxes
//   TrellisScreenPicture the screen picture (SPEC §6): the SVG of the frames a window reports
//   TrellisStoryboard Interface Builder storyboards read as scenario documents (SPEC §11): the XML
//                    tree with places, devices, controller ids, segues (Foundation's XMLParser)
//   TrellisScenario  scenario files: decoding, validation, running, `expect` steps (a step is a
//                    runtime WindowEvent; ScenarioSteps.swift holds each step's file syntax)
//   TrellisTestKit   actor-level unit tests: hierarchy stores and single-controller probes (no YAML)
//   TrellisBench     `trellis bench`: each figure beside its anchor, measured in the same run
//   CZeroMQ          libzmq as a system library (Debian's libzmq3-dev; Homebrew's zeromq on macOS)
//   ZeroMQ           the project's own thin Swift binding over it
//   TrellisZMTP      ZMTP 3.1 (NULL) spoken directly over non-blocking POSIX sockets: greeting,
//                    handshake and frames as pure state machines, a DEALER and a ROUTER one thread
//                    drives with poll(2); interoperates with libzmq peers, needs no libzmq
//   TrellisTransport the node transport: one link under it (ZeroMQ's I/O thread, or the in-memory
//                    loopback for nodes sharing a process), peers, the controller calls declared
//                    once (ControllerCalls), remote stand-ins, hosted controllers; no scenario files
//   TrellisDistributed distributed runs on top of it: conductor (its view of each node a state
//                    machine, NodeLifecycle), worker, launchers, placement, trace collection, keys
//   TrellisWire      the wire protocol's messages and their codec: pure bytes, no sockets
//   TrellisCLI       the whole command line as a library: a runner of yours (SPEC §4.1) registers
//                    its Swift behaviours and calls TrellisCLI.main(registry:)
//   trellis          the plain command-line tool: TrellisCLI with no behaviours of its own
// Where libzmq's headers are found. Debian puts them in /usr/include, which needs no flags, and its
// libzmq.pc lists private -isystem flags that SwiftPM warns about in every dependent's build, so
// Linux asks pkg-config nothing. Homebrew's prefix (/opt/homebrew) is not searched by default:
// on macOS its libzmq.pc says where the headers and the library are.
#if os(macOS)
let zeroMQPkgConfig: String? = "libzmq"
#else
let zeroMQPkgConfig: String? = nil
#endif

let package = Package(
    name: "Trellis",
    // macOS 15: the first with the Synchronization module (Mutex, Atomic). Linux needs no entry.
    // Supported by construction; this project's machines and CI build and test on Linux only.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TrellisModel", targets: ["TrellisModel"]),
        .library(name: "TrellisRuntime", targets: ["TrellisRuntime"]),
        .library(name: "TrellisScenario", targets: ["TrellisScenario"]),
        .library(name: "TrellisStoryboard", targets: ["TrellisStoryboard"]),
        .library(name: "TrellisTestKit", targets: ["TrellisTestKit"]),
        .library(name: "TrellisWire", targets: ["TrellisWire"]),
        .library(name: "TrellisCLI", targets: ["TrellisCLI"]),
        .executable(name: "trellis", targets: ["trellis"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Scenario files may be YAML (SPEC §5): Yams brings libyaml (its CYaml module), whose
        // events TrellisScenario composes itself (YAML 1.2 core schema, one-line errors).
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // `swift package generate-documentation` (DocC) for scripts/test.sh and the Swift Package
        // Index. A command plugin no target uses: a package that depends on Trellis builds none of it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The conductor spawns and supervises its nodes with it (a pidfd on Linux, SIGTERM then
        // SIGKILL on teardown): docs/decisions.md, "Node processes".
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    ],
    targets: [
        .target(name: "TrellisModel", dependencies: ["TrellisJSON"]),
        // The module map links zmq; pkg-config is asked on macOS only (zeroMQPkgConfig, above).
        .systemLibrary(name: "CZeroMQ", pkgConfig: zeroMQPkgConfig, providers: [.apt(["libzmq3-dev"]), .brew(["zeromq"])]),
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"]),
        .target(name: "TrellisZMTP"),
        .target(name: "TrellisTransport", dependencies: ["ZeroMQ", "TrellisZMTP", "TrellisWire", "TrellisModel", "TrellisJSON", "TrellisTrace", "TrellisRuntime"]),
        .target(name: "TrellisDistributed", dependencies: [
            "TrellisTransport", "ZeroMQ", "TrellisWire", "TrellisModel", "TrellisTrace", "TrellisTraceFiles", "TrellisRuntime", "TrellisScenario",
            .product(name: "Subprocess", package: "swift-subprocess"),
        ]),
        .target(name: "TrellisWire", dependencies: ["TrellisModel"]),
        .target(name: "TrellisJSON"),
        .target(name: "TrellisTrace", dependencies: ["TrellisModel"]),
        .target(name: "TrellisTraceFiles", dependencies: ["TrellisModel", "TrellisJSON", "TrellisTrace"]),
        .target(name: "CTrellisPrefetch"),
        .target(name: "TrellisRuntime", dependencies: ["TrellisModel", "TrellisTrace", "CTrellisPrefetch"]),
        .target(name: "TrellisScreenPicture", dependencies: ["TrellisModel", "TrellisRuntime"]),
        .target(name: "TrellisStoryboard", dependencies: ["TrellisModel", "TrellisJSON"]),
        .target(name: "TrellisScenario", dependencies: [
            "TrellisModel", "TrellisStoryboard", "TrellisJSON", "TrellisTrace", "TrellisTraceFiles", "TrellisRuntime", .product(name: "Yams", package: "Yams"),
        ]),
        .target(name: "TrellisBench", dependencies: ["TrellisModel", "TrellisJSON", "TrellisTrace", "TrellisTraceFiles", "TrellisRuntime", "TrellisTransport", "TrellisDistributed", "TrellisWire", "ZeroMQ", "TrellisZMTP", "TrellisScenario", "TrellisStoryboard"]),
        // No TrellisScenario: a user's `import TrellisTestKit` links no scenario files and no YAML.
        .target(name: "TrellisTestKit", dependencies: ["TrellisModel", "TrellisTrace", "TrellisTraceFiles", "TrellisRuntime"]),
        .target(
            name: "TrellisCLI",
            dependencies: [
                "TrellisModel", "TrellisJSON", "TrellisRuntime", "TrellisScenario", "TrellisStoryboard", "TrellisTrace", "TrellisTraceFiles", "TrellisTransport", "TrellisDistributed", "TrellisBench", "TrellisScreenPicture",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "trellis", dependencies: ["TrellisCLI", "TrellisRuntime"]),
        // A runner for the tests (SPEC §4.1): the command line with test behaviours registered,
        // as a user's runner is; the CLI and distributed tests start it as they start `trellis`.
        .executableTarget(
            name: "trellis-test-runner", dependencies: ["TrellisCLI", "TrellisRuntime", "TrellisModel", "TrellisTestSupport"], path: "Tests/TestRunner"),
        // The project's own test fixtures, shared by every suite: device windows, line filters,
        // bounded waits for child processes, the binary, the random scenarios of the differential tester.
        .target(name: "TrellisTestSupport", dependencies: ["TrellisModel", "TrellisJSON", "TrellisTrace", "TrellisRuntime"], path: "Tests/Support"),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ", "TrellisTestSupport"]),
        // ZMTP from the RFCs' bytes, and against real libzmq sockets through the ZeroMQ binding.
        .testTarget(name: "TrellisZMTPTests", dependencies: ["TrellisZMTP", "ZeroMQ", "TrellisTestSupport"]),
        .testTarget(name: "TrellisTraceExportTests", dependencies: ["TrellisTrace", "TrellisTraceFiles", "TrellisScenario", "TrellisModel", "TrellisTestSupport"], exclude: ["Golden"]),
        .testTarget(
            name: "TrellisTransportTests",
            dependencies: ["TrellisTransport", "TrellisDistributed", "TrellisWire", "TrellisScenario", "TrellisRuntime", "TrellisTrace", "TrellisTraceFiles", "TrellisModel", "ZeroMQ", "trellis", "trellis-test-runner", "TrellisTestSupport"]),
        .testTarget(name: "TrellisTestKitTests", dependencies: ["TrellisTestKit", "TrellisRuntime", "TrellisModel", "TrellisScenario"]),
        // The tutorial's code as written (Sources/TrellisTestKit/TrellisTestKit.docc/Testing.md): its tests import only Testing and TrellisTestKit.
        .testTarget(name: "TrellisTutorialTests", dependencies: ["TrellisTestKit", "TrellisRuntime", "TrellisModel"]),
        .testTarget(name: "TrellisWireTests", dependencies: ["TrellisWire", "TrellisModel", "TrellisTestSupport"]),
        .testTarget(name: "TrellisModelTests", dependencies: ["TrellisModel", "TrellisJSON", "TrellisTrace", "TrellisTraceFiles", "TrellisTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "TrellisRuntimeTests", dependencies: ["TrellisRuntime", "TrellisTrace", "TrellisTraceFiles", "TrellisModel", "TrellisTestSupport"]),
        .testTarget(name: "TrellisScenarioTests", dependencies: ["TrellisScenario", "TrellisRuntime", "TrellisTrace", "TrellisTraceFiles", "TrellisModel", "TrellisTestSupport"]),
        // Storyboards (SPEC §11): the reader on storyboards written in Xcode's shape (Storyboards/).
        .testTarget(name: "TrellisStoryboardTests", dependencies: ["TrellisStoryboard", "TrellisScenario", "TrellisModel", "TrellisJSON", "TrellisRuntime", "TrellisTestSupport"],
                    exclude: ["Storyboards"]),
        .testTarget(name: "TrellisPresentationTests", dependencies: ["TrellisScenario", "TrellisRuntime", "TrellisTrace", "TrellisModel", "TrellisTestSupport"]),
        // The screen picture (SPEC §6): frames of scenarios after a step, and their SVG.
        .testTarget(name: "TrellisScreenPictureTests", dependencies: ["TrellisScreenPicture", "TrellisScenario", "TrellisRuntime", "TrellisTrace", "TrellisModel"]),
        .testTarget(name: "TrellisCLITests", dependencies: ["trellis", "trellis-test-runner", "TrellisCLI", "TrellisRuntime", "TrellisTestSupport"]),
        // Runs Tests/Interop/trellis_node.py (pyzmq) as a node of a distributed run of `trellis`.
        .testTarget(name: "TrellisInteropTests", dependencies: ["trellis", "TrellisTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
