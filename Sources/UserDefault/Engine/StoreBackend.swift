import Foundation
import PropertyListCodec

/// The one seam between the library and where values live; nothing above it asks which
/// store it has. Observation is told above it, so no backend can forget to.
protocol StoreBackend: AnyObject, Sendable {
  var context: SuiteContext { get }

  /// Registered defaults included; `number`: the name's ``KeyIdentity/number``, which a
  /// backend may use in place of the name to find a record of it. Cost: one lookup.
  func object(forKey name: String, number: Int) -> Any?

  /// Every typed read's path; a store holding ``StoredObject``s hands them out as they
  /// are, so a scalar read makes no cast from `Any`.
  func storedObject(forKey name: String, number: Int) -> StoredObject?

  /// For a typed read to convert its text. Cost: a flag, else a lock and a lookup.
  func launchArgument(forKey name: String) -> StoredObject?

  /// The suite's own value of `name`, past a launch argument and above the lower domains
  /// (`nil`: none). Inside ``exclusively(_:)`` a read-modify-write starts from it, so that
  /// it never stores an argument's value as the suite's. Cost: a lookup; on a Foundation
  /// instance outside a run, a copy of the suite's domain.
  func ownObject(forKey name: String) -> Any?

  /// A checked property list (`nil` removes); an equal value of the same type changes
  /// nothing. `identity`: the name's, when the writer has it at hand.
  func update(_ name: String, to object: Any?, identity: KeyIdentity?)

  /// A backend holding its values makes them visible together.
  func update(_ writes: [(name: String, object: Any?, identity: KeyIdentity?)])

  /// Holds off the suite's other runs (other processes' too, for a file); `commit` makes
  /// changes durable without letting go. Not reentrant: callers go through
  /// ``ExclusiveRun``, which refuses a nested run instead of deadlocking.
  func exclusively<Result>(
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result

  /// Inside ``exclusively(_:)``, for a backend that did not take in the whole file when
  /// the run began.
  func adoptFileValue(forKey name: String)

  func flush() throws(DefaultsError)

  /// The exit flush flushes the backends that say so.
  var hasUnsavedChanges: Bool { get }

  /// For observers of changes made outside the library.
  func watchOutsideChanges(of names: [String])
}

extension StoreBackend {
  /// The one untyped write; `nil` (or an empty optional) removes. Cost: a walk of the value.
  /// - Throws: ``DefaultsError``, writing nothing, for a non-property-list or invalid name.
  func storeObject(_ value: Any?, forName name: String) throws(DefaultsError) {
    if let problem = KeyName.problem(with: name) { throw DefaultsError(.invalidKey, problem) }
    guard let value, let unwrapped = PropertyListObject.unwrapped(value) else {
      update(name, to: nil, identity: nil)
      return
    }
    update(name, to: try PropertyListObject.validated(unwrapped), identity: nil)
  }

  func storeReportingErrors(_ value: Any?, forName name: String) {
    do throws(DefaultsError) { try storeObject(value, forName: name) } catch {
      DefaultsDiagnostics.report(
        error.kind, key: name, suite: context.name, "\(error.message); nothing was written")
    }
  }
}
