/// The serial executor that every actor of one window runs on — its controllers, its
/// presentation controllers and the window itself — as UIKit's controllers all run on the main
/// thread.
///
/// Each of those actors still isolates its own state; they only take turns on one executor,
/// which a window needs anyway, since it handles one event at a time and a transition is one
/// depth-first walk. What it saves: a message from one controller to another of the same window
/// finds the runtime already on the receiver's executor, so the hop neither releases one actor
/// nor acquires another (`swift_task_switch` carries on in place), and a controller is no longer
/// a default actor, whose own executor state took 96 bytes of it. Different windows have
/// different executors and run concurrently; remote controllers' stand-ins and test probes are
/// actors of their own.
///
/// An actor with no state: the runtime's default actor is the serial executor, lent to the
/// window's actors through their `unownedExecutor`.
actor WindowExecutor {}
