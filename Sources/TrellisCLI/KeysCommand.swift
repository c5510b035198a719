import ArgumentParser
import Foundation
import TrellisDistributed

/// `trellis keys`: CURVE key files for distributed runs whose nodes are started by hand.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make CURVE key files for a distributed run over several hosts.",
        discussion: """
            A run secured with CURVE needs a key pair per node. `\(ProgramName.current) keys make` writes them \
            into a folder only its owner can enter (0700): NAME.key, the node's secret key \
            (0600), and NAME.pub, its public key. Copy to each host its own node's NAME.key and \
            every NAME.pub, into a private folder; then start every node with --keys FOLDER \
            (`\(ProgramName.current) node --keys`, `\(ProgramName.current) run --keys`). A node lets in exactly the public \
            keys of its folder, and a handshake that fails because of keys is said at once: \
            "node b refused the conductor's CURVE key", exit 2.

            EXAMPLES:
              \(ProgramName.current) keys make main b c --dir k
              \(ProgramName.current) node --name b --bind tcp://*:5556 --peer main=tcp://a:5555 --keys k
              \(ProgramName.current) run s.json --transport zmq --node b=tcp://b:5556 --keys k
            """,
        subcommands: [KeysMakeCommand.self]
    )
}

/// `trellis keys make NAME... --dir DIR`.
struct KeysMakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract: "Write a CURVE key pair per node: DIR/NAME.key (secret, 0600) and DIR/NAME.pub.",
        discussion: """
            The folder is made private (0700) when missing; an existing one must already be \
            private. Keys are never overwritten: an existing NAME.key or NAME.pub is an error \
            (exit 2). Name every node of the run's placement, the conductor among them.

            EXAMPLES:
              \(ProgramName.current) keys make main b c --dir k
              \(ProgramName.current) keys make d --dir k
            """
    )

    @Argument(help: "The nodes to make a key pair for, as the scenario's placement names them.")
    var names: [String]

    @Option(help: "The folder to write the key files into (made private, 0700, when missing).", completion: .directory)
    var dir: String

    func run() async throws {
        do {
            for file in try CurveKeyFolder.make(nodes: names, in: dir) {
                print(file.hasSuffix(".key") ? "wrote \(file) (secret key: keep it on its node's host only)" : "wrote \(file)")
            }
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode(2)
        }
    }
}
