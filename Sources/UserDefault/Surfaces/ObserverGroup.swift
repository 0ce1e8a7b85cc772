import Foundation
import PropertyListCodec

/// The observers of one key read through one bridge in one suite, told of a change by one
/// listener of the suite's hub.
///
/// The group decodes each change once and calls its observers in one loop. Apart from
/// sharing the decode, the loop is where the cost per observer is decided: one generic
/// call does the type lookups for `Value` once per change, where a listener per observer
/// paid them for every observer (measured: about 50 of 130 ns per observer at 1,000
/// observers). Each observer keeps its own default, gate and callback.
final class ObserverGroup<Value: Sendable>: Sendable {
  /// One observer: what it is given for nothing stored, and how it is called.
  ///
  /// A class, not a struct: the loop that tells members runs unspecialised, where copying
  /// a struct member went through its generic layout (about 170 instructions each).
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
  /// The name and bridge every member reads with (the first member's descriptor).
  private let descriptor: KeyDescriptor<Value>
  private let members = Lock<ContiguousArray<Member>>([])
  /// The group's listener in the hub; set once, when the group is made.
  private let listener = Lock<UInt64?>(nil)

  private init(access: DefaultsAccess, descriptor: KeyDescriptor<Value>) {
    self.access = access
    self.descriptor = descriptor
  }

  /// Adds an observer of `descriptor` to its group in the suite of `access`, making the
  /// group (and its one listener) for the first; returns what stops it.
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
      // A group is only ever kept under its own key, so under its own `Value`; the cast
      // is checked all the same.
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

  /// Removes the member `id`; the last one to leave removes the group and its listener.
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

  /// Decodes `change` once and tells every member, each with its own default.
  private func deliver(_ change: ChangeHub.Change) {
    let members = self.members.withLock { $0 }
    guard !members.isEmpty else { return }
    let old = access.observedValue(change.oldObject, descriptor)
    let new = access.observedValue(change.newObject, descriptor)
    // Both stored: one change for every member. This code runs unspecialised, and making
    // a `KeyChange<Value>` looks its type up at run time: 370 of 920 instructions per
    // observer when it was made for each one (callgrind, 1,000 observers).
    if let old, let new {
      let keyChange = UserDefaults.KeyChange(oldValue: old, newValue: new)
      for member in members { member.gate.deliver { member.callback(keyChange) } }
      return
    }
    // A side with nothing stored reads as each member's own default.
    for member in members {
      let keyChange = UserDefaults.KeyChange(
        oldValue: old ?? member.defaultValue.value, newValue: new ?? member.defaultValue.value)
      member.gate.deliver { member.callback(keyChange) }
    }
  }
}
