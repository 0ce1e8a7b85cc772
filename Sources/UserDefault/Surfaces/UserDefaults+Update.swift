import Foundation

extension UserDefaults {
  /// Reads `key`, lets `body` change it, and writes the result with no other update,
  /// transaction or migration of the suite in between, from any thread or (for a
  /// ``PreferencesStore``, or a Foundation instance on Linux) any process. For counters.
  ///
  /// `body` sees the value after other processes' writes, under the file lock; the result
  /// is durable before the lock is released. Observers are told as for any write.
  ///
  /// Cost: the file lock, held while `body` runs (keep it short), and one durable write.
  /// On Apple platforms a Foundation instance excludes this process's threads only.
  ///
  /// - Parameters:
  ///   - key: The typed key.
  ///   - body: Changes the value in place; must not start another update of the suite.
  /// - Returns: The value written.
  /// - Throws: What `body` throws (nothing is written); ``DefaultsError`` of kind
  ///   ``DefaultsDiagnostic/Kind/nestedUpdate`` inside another update of the suite on this
  ///   thread, or ``DefaultsDiagnostic/Kind/failedSave`` when the write is not durable (it
  ///   is saved later, as any write).
  ///
  /// `let launches = try store.update(.launchCount) { $0 += 1 }`
  @discardableResult
  public func update<Value>(
    _ key: Key<Value>, _ body: (inout Value) throws -> Void
  ) throws -> Value {
    try transaction { transaction in
      var value = transaction[key]
      try body(&value)
      transaction[key] = value
      return value
    }
  }

  /// Runs `body` and writes what it wrote at once: other processes see all or none, even
  /// after a crash. Exclusive and costed as ``update(_:_:)``.
  ///
  /// - Parameters:
  ///   - body: Reads and writes keys through its ``DefaultsTransaction``; must not start
  ///     another update of the suite.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws (nothing is written); ``DefaultsError`` when a value
  ///   cannot be stored, when nested (``DefaultsDiagnostic/Kind/nestedUpdate``), or when
  ///   not durable (``DefaultsDiagnostic/Kind/failedSave``; saved later).
  ///
  /// `try store.transaction { t in t[.balance] -= price; t[.purchases] += 1 }`
  public func transaction<Output>(_ body: (DefaultsTransaction) throws -> Output) throws -> Output {
    let backend = self.backend
    let transaction = DefaultsTransaction(defaults: self, backend: backend)
    let outcome = try ExclusiveRun.run(on: backend) {
      commit throws(DefaultsError) -> Result<Output, any Error> in
      let output: Output
      do {
        output = try body(transaction)
      } catch {
        transaction.close()
        return .failure(error)
      }
      // Closed before the writes land: an observer they reach cannot add to them.
      transaction.close()
      if let refusal = transaction.refusal { return .failure(refusal) }
      transaction.apply()
      try commit()
      return .success(output)
    }
    return try outcome.get()
  }
}
