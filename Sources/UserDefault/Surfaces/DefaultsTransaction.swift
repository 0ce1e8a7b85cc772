import Foundation

/// The keys one ``Foundation/UserDefaults/transaction(_:)`` reads and writes: its
/// subscript reads a typed key's value as the suite holds it now (another process's write
/// of a moment ago included) and records writes, which land together when the body
/// returns, or not at all when it throws.
///
/// ```swift
/// try store.transaction { t in
///   t[.balance] -= price
///   t[.purchases] += 1
/// }
/// ```
///
/// A transaction is only valid inside its body: a write through it after the body
/// returned is refused and reported, and writes nothing.
public final class DefaultsTransaction {
  private let defaults: UserDefaults
  private let backend: any StoreBackend
  /// The writes made so far, one per name, in the order first written.
  private var writes: [(name: String, value: Any, object: Any?, path: TrackedKeys.Path)] = []
  private var positions: [String: Int] = [:]
  /// Names already given the file's value (see ``StoreBackend/adoptFileValue(forKey:)``).
  private var adopted: Set<String> = []
  /// The first write that could not be encoded: the transaction writes nothing.
  private(set) var refusal: DefaultsError?
  private var isOpen = true

  init(defaults: UserDefaults, backend: any StoreBackend) {
    self.defaults = defaults
    self.backend = backend
  }

  /// The value of `key`: what this transaction wrote, else the value as the suite holds
  /// it now (a launch argument, a lower domain or the default when the file has none).
  /// Setting records a write (`nil` on an optional key removes); it is made when the body
  /// returns. Cost: a read as `defaults[key]` reads; a write encodes the value at once.
  ///
  /// - Parameters:
  ///   - key: The typed key.
  /// - Returns: The value written earlier in this transaction, or the stored value, or
  ///   the key's default.
  ///
  /// `t[.purchases] += 1`
  public subscript<Value>(key: UserDefaults.Key<Value>) -> Value {
    get {
      if let index = positions[key.name], let value = writes[index].value as? Value {
        return value
      }
      if isOpen, adopted.insert(key.name).inserted { backend.adoptFileValue(forKey: key.name) }
      return defaults[key]
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
      guard key.isValidName else {
        throw DefaultsError(.invalidKey, KeyName.problem(with: key.name) ?? key.name)
      }
      object = try key.bridge.encode(value)
    } catch {
      refusal = DefaultsError(
        error.kind, "\(key.name): \(error.message); the transaction wrote nothing")
      return
    }
    let write = (name: key.name, value: value as Any, object: object, path: key.trackingPath)
    if let index = positions[key.name] {
      writes[index] = write
    } else {
      positions[key.name] = writes.count
      writes.append(write)
    }
  }

  /// Ends the transaction: later writes through it are refused.
  func close() {
    isOpen = false
  }

  /// Hands the recorded writes to the backend, all at once.
  func apply() {
    guard !writes.isEmpty else { return }
    backend.update(writes.map { ($0.name, $0.object, $0.path) })
  }
}
