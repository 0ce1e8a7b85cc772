import Foundation
import PropertyListCodec

/// The one seam between the library and where values live. Everything above it (keys,
/// bridging, every surface, observation, migrations) reaches storage only through these
/// requirements; it never asks which store it has.
///
/// The implementations live in `Stores/`, each one object per suite per process, and
/// `UserDefaults.withBackend(_:)` there is the one place that finds the backend of an
/// instance: a new backend is a file in that folder and a line in that function. Nothing
/// above `Stores/` names a concrete store; the hottest path, a typed read, is a
/// requirement here too (``storedObject(forKey:tracking:)``), so every backend has it.
protocol StoreBackend: AnyObject, Sendable {
  /// The suite's shared state: its name, decoded-value cache and change hub.
  var context: SuiteContext { get }

  /// The stored object for `name` (registered defaults included), or `nil`.
  /// Cost: one lookup in the store.
  func object(forKey name: String) -> Any?

  /// Every typed read's path: tells the Observation framework that the key at `path` was
  /// read, then looks `name` up (registered defaults included). A store that holds its
  /// objects as ``StoredObject``s hands them out as they are, so that a typed read of a
  /// scalar makes no cast from `Any`; any other wraps its object in
  /// ``StoredObject/other(_:)``, which costs nothing beyond the enum's tag.
  func storedObject(forKey name: String, tracking path: TrackedKeys.Path) -> StoredObject?

  /// The launch argument for `name` (`-name value`) when this backend's reads see launch
  /// arguments and the program was given one, else `nil`. A typed read that cannot decode
  /// what it found converts an argument's text, as `integer(forKey:)` does. Cost: a check
  /// that there are no arguments, else a lock and a lookup.
  func launchArgument(forKey name: String) -> StoredObject?

  /// Stores `object` under `name` (`nil` removes), tells the suite's observers and
  /// schedules saving. The object is already a checked property list. Writing a value
  /// equal to the stored one, of the same property-list type, changes nothing.
  func update(_ name: String, to object: Any?, trackingPath: TrackedKeys.Path?)

  /// Stores several objects as ``update(_:to:trackingPath:)`` stores each, telling the
  /// observers of each changed name once; a backend that holds its values itself makes
  /// them visible to its readers together.
  func update(_ writes: [(name: String, object: Any?, trackingPath: TrackedKeys.Path?)])

  /// Runs `body` with every other run of the suite held off, in this process and, where
  /// the backend saves a file, in other processes (whose writes are taken in first);
  /// `commit` makes the changes so far durable without letting go. Backends that cannot
  /// exclude other processes exclude this process's threads only. Not reentrant: callers
  /// go through ``ExclusiveRun``, which refuses a nested run instead of deadlocking.
  func exclusively<Result>(
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result

  /// Inside ``exclusively(_:)``: makes reads of `name` give what the suite's file holds
  /// now, for a backend that did not take in the whole file when the run began (the
  /// others do nothing). Cost: a lookup in the file's values read at the run's start.
  func adoptFileValue(forKey name: String)

  /// Makes every change so far durable now, and waits; throws (and reports) on failure.
  func flush() throws(DefaultsError)

  /// Starts noticing changes of `names` made outside the library (plain Foundation
  /// calls, where Foundation posts a notification), so their observers hear them.
  func watchOutsideChanges(of names: [String])
}

extension StoreBackend {
  /// Stores an untyped value after checking that it is a property list; `nil` (or an
  /// optional holding none) removes. The one untyped write: `UserDefaults.store(_:forKey:)`,
  /// migrations and ``PreferencesStore``'s `set(_:forKey:)` all come here.
  ///
  /// Cost: the check walks the whole value, then ``update(_:to:trackingPath:)``.
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

  /// ``storeObject(_:forName:)`` that reports a refusal through ``DefaultsDiagnostics``
  /// instead of throwing.
  func storeReportingErrors(_ value: Any?, forName name: String) {
    do throws(DefaultsError) { try storeObject(value, forName: name) } catch {
      DefaultsDiagnostics.report(
        error.kind, key: name, suite: context.name, "\(error.message); nothing was written")
    }
  }
}
