import Foundation

extension UserDefaults {
  /// Reads `key`, lets `body` change the value, and writes the result, with no other
  /// update, transaction or migration of the suite in between: not from another thread,
  /// and, on a ``PreferencesStore`` or (on Linux) a Foundation instance, not from another
  /// process either. For counters, lists, quotas: anything read and then written.
  ///
  /// `body` starts from the value as the suite holds it now: under the suite's file lock,
  /// after taking in what other processes wrote (a launch argument, a lower domain or the
  /// default when the file has none). The result is in the file, durably, before the lock
  /// is let go. Observers are told as for any write; writing an equal value tells nobody.
  ///
  /// Cost: the file lock, and one durable write (one atomic replacement, two `fsync`s) per
  /// call; the lock is held while `body` runs, and other processes' writes to the suite
  /// wait meanwhile, so keep `body` short. On Apple platforms a Foundation instance's
  /// update excludes this process's threads only (`cfprefsd` owns its file); a
  /// ``PreferencesStore`` in an App Group container excludes every process.
  ///
  /// - Parameters:
  ///   - key: The typed key.
  ///   - body: Changes the value in place. It must not start another update, transaction or
  ///     migration of the same suite (that one throws ``DefaultsDiagnostic/Kind/nestedUpdate``).
  /// - Returns: The value written.
  /// - Throws: What `body` throws (then nothing is written, and nobody is told); a
  ///   ``DefaultsError``: ``DefaultsDiagnostic/Kind/nestedUpdate`` when called inside
  ///   another update of the suite on this thread, ``DefaultsDiagnostic/Kind/failedSave``
  ///   (or the file's problem) when the write cannot be made durable: the value is then
  ///   written in this process and saved later, as any write.
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

  /// Runs `body`, whose transaction reads and writes typed keys, and writes what it wrote
  /// all at once: other processes see every change or none, also after a crash, and no
  /// other update, transaction or migration of the suite runs in between (see
  /// ``update(_:_:)`` for which processes and threads that covers, and what it costs).
  ///
  /// - Parameters:
  ///   - body: Reads and writes keys through its ``DefaultsTransaction``
  ///     (`t[.balance] -= price`). It must not start another update, transaction or
  ///     migration of the same suite.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws (then nothing is written, and nobody is told); a
  ///   ``DefaultsError`` when a value written cannot be stored (nothing is written), when
  ///   called inside another update of the suite on this thread
  ///   (``DefaultsDiagnostic/Kind/nestedUpdate``), or when the writes cannot be made
  ///   durable (``DefaultsDiagnostic/Kind/failedSave``: they stay written in this process
  ///   and are saved later, as any write).
  ///
  /// `try store.transaction { t in t[.balance] -= price; t[.purchases] += 1 }`
  public func transaction<Output>(_ body: (DefaultsTransaction) throws -> Output) throws -> Output {
    let backend = self.backend
    let transaction = DefaultsTransaction(defaults: self, backend: backend)
    let outcome = try ExclusiveRun.run(on: backend) {
      commit throws(DefaultsError) -> Result<Output, any Error> in
      defer { transaction.close() }
      let output: Output
      do {
        output = try body(transaction)
      } catch {
        return .failure(error)
      }
      transaction.close()
      if let refusal = transaction.refusal { return .failure(refusal) }
      transaction.apply()
      try commit()
      return .success(output)
    }
    return try outcome.get()
  }
}
