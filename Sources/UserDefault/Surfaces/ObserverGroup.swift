import Foundation
import PropertyListCodec

/// The observers of one key read through one bridge in one suite, told of a change by one
/// listener of the suite's hub.
///
/// The group decodes each change once and calls its observers in one loop: one generic
/// call does the type lookups for `Value` once per change, not once per observer, which
/// was a large part of each observer's cost. Each keeps its own default, gate and callback.
final class ObserverGroup<Value: Sendable>: Sendable {
  /// A class, not a struct: the loop runs unspecialised, where copying a struct member
  /// goes through its generic layout.
  private final class Member: Sendable {
    let id: UInt64
    let gate: DeliveryGate
    let defaultValue: DefaultValue<Value>
    let callback: @Sendable (UserDefaults.KeyChange<Value>) -> Void

    init(
      id: UInt64, gate: DeliveryGate, defaultValue: DefaultValue<Value>,
      callback: @escaping @Sendable (UserDefaults.KeyChange<Value>) -> Void
    ) {
      (self.id, self.gate, self.defaultValue, self.callback) = (id, gate, defaultValue, callback)
    }
  }

  private let access: DefaultsAccess
  /// The first member's: every member reads with its name and bridge.
  private let descriptor: KeyDescriptor<Value>
  private let members = Lock<ContiguousArray<Member>>([])
  private let listener = Lock<UInt64?>(nil)

  private init(access: DefaultsAccess, descriptor: KeyDescriptor<Value>) {
    self.access = access
    self.descriptor = descriptor
  }

  /// Adds an observer to its group, making the group for the first; returns what stops it.
  static func join(
    _ descriptor: KeyDescriptor<Value>, in access: DefaultsAccess, gate: DeliveryGate,
    _ callback: @escaping @Sendable (UserDefaults.KeyChange<Value>) -> Void
  ) -> @Sendable () -> Void {
    let suite = access.suite
    let key = ObserverGroupKey(
      name: descriptor.name, bridge: ObjectIdentifier(descriptor.bridge.token))
    let id = suite.nextObserverID()
    let member = Member(
      id: id, gate: gate, defaultValue: descriptor.defaultValue, callback: callback)
    let group = suite.observerGroups.withLock { groups in
      // Kept under its own key, so of its own `Value`; checked all the same.
      let group =
        groups[key].map { $0 as! ObserverGroup }
        ?? ObserverGroup(access: access, descriptor: descriptor)
      if groups[key] == nil {
        groups[key] = group
        group.listener.withLock {
          $0 = suite.hub.add(names: [descriptor.name]) { [group] in group.deliver($0) }
        }
      }
      group.members.withLock { $0.append(member) }
      return group
    }
    return { group.leave(id, key: key, suite: suite) }
  }

  /// The last member to leave removes the group and its listener.
  private func leave(_ id: UInt64, key: ObserverGroupKey, suite: SuiteContext) {
    suite.observerGroups.withLock { groups in
      let isEmpty = members.withLock { members in
        members.removeAll { $0.id == id }
        return members.isEmpty
      }
      guard isEmpty, groups[key] === self else { return }
      groups[key] = nil
      if let listener = listener.withLock({ $0 }) { suite.hub.remove(listener) }
    }
  }

  private func deliver(_ change: ChangeHub.Change) {
    let members = self.members.withLock { $0 }
    guard !members.isEmpty else { return }
    let old = access.observedValue(change.oldObject, descriptor)
    let new = access.observedValue(change.newObject, descriptor)
    // Both stored: one change for every member, as making a `KeyChange<Value>` here,
    // unspecialised, looks its type up at run time.
    if let old, let new {
      let keyChange = UserDefaults.KeyChange(oldValue: old, newValue: new)
      for member in members { member.gate.deliver { member.callback(keyChange) } }
      return
    }
    for member in members {
      let keyChange = UserDefaults.KeyChange(
        oldValue: old ?? member.defaultValue.value, newValue: new ?? member.defaultValue.value)
      member.gate.deliver { member.callback(keyChange) }
    }
  }
}
