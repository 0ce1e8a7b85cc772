import Foundation

/// The keys one ``Foundation/UserDefaults/transaction(_:)`` reads and writes; writes land
/// together when the body returns, or not at all when it throws.
///
/// ```swift
/// try store.transaction { t in
///   t[.balance] -= price
///   t[.purchases] += 1
/// }
/// ```
///
/// Only valid inside its body: a later write is refused and reported.
public final class DefaultsTransaction {
  private let defaults: UserDefaults
  private let backend: any StoreBackend
  private var writes: [(name: String, value: Any, object: Any?, identity: KeyIdentity)] = []
  private var positions: [String: Int] = [:]
  private var adopted: Set<String> = []
  /// Then the transaction writes nothing.
  private(set) var refusal: DefaultsError?
  private var isOpen = true

  init(defaults: UserDefaults, backend: any StoreBackend) {
    self.defaults = defaults
    self.backend = backend
  }

  /// What this transaction wrote, else the value the suite holds now. Setting records a
  /// write (`nil` removes), made when the body returns; it encodes at once.
  ///
  /// A launch argument (`-counter 5`) masks a key for plain reads, but not here: a key the
  /// suite stores reads as its stored value, so `update` adds to what the file holds, not
  /// to the argument. A key stored nowhere reads as a plain read gives it (the argument).
  ///
  /// - Parameters:
  ///   - key: The typed key.
  /// - Returns: The value written earlier in this transaction, or the suite's own stored
  ///   value, or what a plain read gives (a launch argument, a lower domain, the default).
  ///
  /// `t[.purchases] += 1`
  public subscript<Value>(key: UserDefaults.Key<Value>) -> Value {
    get {
      if let index = positions[key.name], let value = writes[index].value as? Value {
        return value
      }
      if isOpen, adopted.insert(key.name).inserted { backend.adoptFileValue(forKey: key.name) }
      // From the backend the run locked (a task's scoped default cannot stand in for it
      // here), telling the Observation framework as a plain read does; decoded apart from
      // a plain read, whose report would say that the stored value is left as it is.
      let identity = key.descriptor.identity
      backend.context.hub.tracking.access(identity.path)
      let own =
        backend.launchArgument(forKey: key.name) != nil
        ? backend.ownObject(forKey: key.name) : nil
      guard
        let object = own
          ?? backend.storedObject(forKey: key.name, number: identity.number)?.object
      else {
        return key.defaultValue
      }
      return DefaultsAccess(backend: backend).transactionValue(
        object, key.descriptor, isOwn: own != nil) ?? key.defaultValue
    }
    set {
      record(newValue, for: key.descriptor)
    }
  }

  private func record<Value>(_ value: Value, for key: KeyDescriptor<Value>) {
    guard isOpen else {
      DefaultsDiagnostics.report(
        .refusedValue, key: key.name, suite: backend.context.name,
        "a write through a transaction after its body returned; nothing was written")
      return
    }
    guard refusal == nil else { return }
    let object: Any?
    do throws(DefaultsError) {
      object = try key.storedForm(of: value)
    } catch {
      refusal = DefaultsError(
        error.kind, "\(key.name): \(error.message); the transaction wrote nothing")
      return
    }
    let write = (name: key.name, value: value as Any, object: object, identity: key.identity)
    if let index = positions[key.name] {
      writes[index] = write
    } else {
      positions[key.name] = writes.count
      writes.append(write)
    }
  }

  func close() {
    isOpen = false
  }

  func apply() {
    guard !writes.isEmpty else { return }
    backend.update(writes.map { ($0.name, $0.object, $0.identity) })
  }
}
