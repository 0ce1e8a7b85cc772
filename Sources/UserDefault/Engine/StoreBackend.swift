import Foundation

/// The one seam between the library and where values live: everything above it reaches
/// storage only through these requirements, and never asks which store it has. The
/// Observation framework is told of reads and changes above it (the read path, the
/// suite's ``ChangeHub``), so no backend can forget to. A backend is one file: the
/// library's own live in `Stores/`, and a `UserDefaults` subclass that carries its own
/// backend (``BackendCarrier``) is sent to it.
protocol StoreBackend: AnyObject, Sendable {
  var context: SuiteContext { get }

  /// The stored object for `name` (registered defaults included). Cost: one lookup.
  func object(forKey name: String) -> Any?

  /// Every typed read's path: looks `name` up. A store holding ``StoredObject``s hands
  /// them out as they are, so a scalar read makes no cast from `Any`; any other wraps its
  /// object in ``StoredObject/other(_:)``.
  func storedObject(forKey name: String) -> StoredObject?

  /// The launch argument for `name` (`-name value`), if this backend's reads see one, for
  /// a typed read to convert its text. Cost: a flag, else a lock and a lookup.
  func launchArgument(forKey name: String) -> StoredObject?

  /// Stores a checked property list under `name` (`nil` removes), tells observers and
  /// schedules saving. An equal value of the same type changes nothing.
  func update(_ name: String, to object: Any?, trackingPath: TrackedKeys.Path?)

  /// Stores several objects as ``update(_:to:trackingPath:)`` does, telling observers of
  /// each changed name once; a backend holding its values makes them visible together.
  func update(_ writes: [(name: String, object: Any?, trackingPath: TrackedKeys.Path?)])

  /// Runs `body` with the suite's other runs held off, in this process and, where the
  /// backend saves a file, in other processes (whose writes are taken in first); `commit`
  /// makes changes durable without letting go. Not reentrant: callers go through
  /// ``ExclusiveRun``, which refuses a nested run instead of deadlocking.
  func exclusively<Result>(
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result

  /// Inside ``exclusively(_:)``: makes reads of `name` give what the suite's file holds
  /// now, for a backend that did not take in the whole file when the run began (the
  /// others do nothing). Cost: a lookup in the file's values read at the run's start.
  func adoptFileValue(forKey name: String)

  /// Makes every change so far durable now, and waits; throws (and reports) on failure.
  func flush() throws(DefaultsError)

  /// Whether writes wait to be made durable: the exit flush flushes the backends that
  /// say so.
  var hasUnsavedChanges: Bool { get }

  /// Starts noticing changes of `names` made outside the library, for their observers.
  func watchOutsideChanges(of names: [String])
}

extension StoreBackend {
  /// The one untyped write: checks that `value` is a property list, then stores it; `nil`
  /// (or an empty optional) removes. Cost: a walk of the value, then the update.
  ///
  /// - Parameters:
  ///   - value: A property list, or `nil` to remove the stored value.
  ///   - name: The stored name.
  /// - Throws: ``DefaultsError`` (and writes nothing) when any part of `value` is not a
  ///   property list, or `name` is not a valid key name.
  func storeObject(_ value: Any?, forName name: String) throws(DefaultsError) {
    if let problem = KeyName.problem(with: name) { throw DefaultsError(.invalidKey, problem) }
    guard let value, let unwrapped = PropertyListObject.unwrapped(value) else {
      update(name, to: nil, trackingPath: nil)
      return
    }
    update(name, to: try PropertyListObject.validated(unwrapped), trackingPath: nil)
  }

  /// ``storeObject(_:forName:)`` that reports a refusal instead of throwing.
  func storeReportingErrors(_ value: Any?, forName name: String) {
    do throws(DefaultsError) { try storeObject(value, forName: name) } catch {
      DefaultsDiagnostics.report(
        error.kind, key: name, suite: context.name, "\(error.message); nothing was written")
    }
  }
}
