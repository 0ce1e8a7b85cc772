import Testing
// Re-exported, as DefaultEntry and SafeDefaultsKit re-export it: a test that imports this
// module declares and reads keys without a second import.
@_exported import UserDefault

/// Gives each test, and each argument of a parameterized test, a fresh in-memory store as
/// its default (see `UserDefaults.withDefault(_:operation:)`); nothing is written to disk,
/// and tests running in parallel never see each other's values.
///
/// ```swift
/// @Test(.isolatedDefaults) func countsLaunches() {
///   UserDefaults.standard[.launchCount] += 1   // this test's own store
///   #expect(UserDefaults.standard[.launchCount] == 1)
/// }
/// ```
///
/// On a suite (`@Suite(.isolatedDefaults)`) it applies to every test in it, each with its
/// own store. The scope covers the test's child tasks, not detached tasks.
///
/// A diagnostic the test raises that no `DefaultsDiagnostics.withHandler(_:operation:)`
/// inside the test takes is recorded as an issue of the test, naming its kind and key: a
/// wrong type read in a test fails it. To expect one, wrap the code in `withHandler` and
/// check what it received.
///
/// Cost per test: one in-memory store and two task-local bindings.
public struct IsolatedDefaultsTrait: TestTrait, SuiteTrait, TestScoping {
  /// Applies to every test of a suite it is attached to.
  public var isRecursive: Bool { true }

  /// Runs `function` with a new in-memory store as the default and unexpected
  /// diagnostics recorded as issues.
  ///
  /// - Parameters:
  ///   - test: The test being run.
  ///   - testCase: The test case (argument) being run, if any.
  ///   - function: The test's body.
  /// - Throws: What the test throws.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let store = PreferencesStore.inMemory(suiteName: "isolatedDefaults: " + test.name)
    let location = test.sourceLocation
    try await UserDefaults.withDefault(store) {
      try await DefaultsDiagnostics.withHandler({ event in
        Issue.record(
          "Unexpected UserDefault diagnostic \(event.kind.rawValue) for key \(event.key ?? "(none)"): \(event.message)",
          sourceLocation: location)
      }) {
        try await function()
      }
    }
  }
}

extension Trait where Self == IsolatedDefaultsTrait {
  /// A fresh in-memory store as each test's default; see ``IsolatedDefaultsTrait``.
  ///
  /// `@Test(.isolatedDefaults) func savesTheTheme() { … }`
  public static var isolatedDefaults: Self { Self() }
}
