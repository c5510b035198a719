import Testing
import TrellisDistributed

/// TWP §3's endpoints as the command line checks them before anything starts.
@Suite struct EndpointSyntaxTests {
    @Test("endpoints a node listens on or connects to", arguments: [
        ("ipc:///tmp/run/b.sock", EndpointSyntax.Use.connect),
        ("ipc://b.sock", .bind),
        ("tcp://127.0.0.1:5556", .connect),
        ("tcp://10.0.0.1:65535", .connect),
        ("tcp://[::1]:5556", .connect),
        ("tcp://host.example:1", .connect),
        ("tcp://*:5556", .bind),
        ("tcp://127.0.0.1:*", .bind),
        ("tcp://127.0.0.1:0", .bind),
        ("tcp://eth0:5556", .bind),
    ])
    func accepted(_ endpoint: String, use: EndpointSyntax.Use) {
        #expect(EndpointSyntax.problem(with: endpoint, for: use) == nil)
    }

    @Test("each mistake is named", arguments: [
        ("localhost:5555", EndpointSyntax.Use.connect, "it is neither ipc://PATH nor tcp://HOST:PORT"),
        ("ipc://", .bind, "ipc:// needs a path"),
        ("tcp://127.0.0.1", .connect, "tcp:// needs HOST:PORT"),
        ("tcp://:5555", .connect, "tcp:// needs a host before the port"),
        ("tcp://127.0.0.1:abc", .connect, "the port \"abc\" is not a number from 1 to 65535"),
        ("tcp://127.0.0.1:0", .connect, "the port \"0\" is not a number from 1 to 65535"),
        ("tcp://127.0.0.1:*", .connect, "the port \"*\" is not a number from 1 to 65535"),
        ("tcp://127.0.0.1:99999", .bind, "the port \"99999\" is not a number from 0 to 65535, or *"),
        ("tcp://127.0.0.1:-1", .bind, "the port \"-1\" is not a number from 0 to 65535, or *"),
        ("tcp://*:5555", .connect, "* is for listening; connecting needs the host's name or address"),
    ])
    func refused(_ endpoint: String, use: EndpointSyntax.Use, problem: String) {
        #expect(EndpointSyntax.problem(with: endpoint, for: use) == problem)
    }
}
