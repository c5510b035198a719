import TrellisCLI
import TrellisRuntime

/// The plain `trellis`: the command line with no Swift behaviours of its own (SPEC §4.1). A
/// runner of yours is this same program with its behaviours registered.
@main
struct TrellisCommand {
    static func main() async {
        await TrellisCLI.main(registry: BehaviorRegistry())
    }
}
