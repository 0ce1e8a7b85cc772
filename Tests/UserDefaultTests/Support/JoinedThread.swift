import Foundation

/// Runs `body` on a new thread and returns once that thread has ended, its thread-specific
/// destructors included (`pthread_join`).
func runOnJoinedThread(_ body: @escaping @Sendable () -> Void) {
  final class Context {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Context(body)).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
    let started = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Context>.fromOpaque(context).takeRetainedValue().body()
        return nil
      }, context)
    precondition(started == 0)
    pthread_join(thread!, nil)
  #else
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Context>.fromOpaque(context!).takeRetainedValue().body()
        return nil
      }, context)
    precondition(started == 0)
    pthread_join(thread, nil)
  #endif
}
