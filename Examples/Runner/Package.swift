// swift-tools-version: 6.0
import PackageDescription

// A runner of your own (SPEC §4.1, README "Your controllers in every tool"): the whole `trellis`
// command line with this package's Swift behaviours registered by name. Build and try it:
//   swift build && .build/debug/my-trellis run Scenarios/overlay-sidebar.json
let package = Package(
    name: "Runner",
    // Trellis's own floor on macOS (Synchronization's Mutex and Atomic); Linux needs no entry.
    platforms: [.macOS(.v15)],
    dependencies: [
        // `name:` because the checkout folder (the identity SwiftPM derives from a path) may be
        // named anything; products are looked up by this name.
        .package(name: "Trellis", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "my-trellis",
            dependencies: [
                .product(name: "TrellisCLI", package: "Trellis"),
                .product(name: "TrellisRuntime", package: "Trellis"),
                .product(name: "TrellisModel", package: "Trellis"),
            ],
            path: "Sources/MyTrellis"),
    ],
    swiftLanguageModes: [.v6]
)
