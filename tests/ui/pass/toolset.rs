use codemode::{ErrorKind, StaticToolset, ToolCallError, Toolset};

struct Bank {
    balance: std::sync::atomic::AtomicI64,
}

struct Overdrawn;

impl From<Overdrawn> for ToolCallError {
    fn from(_: Overdrawn) -> Self {
        ToolCallError::new("", ErrorKind::ToolFailed, "insufficient funds")
    }
}

#[codemode::toolset]
impl Bank {
    /// Withdraw money.
    #[tool]
    fn withdraw(
        &self,
        /// Amount in cents.
        amount: i64,
    ) -> Result<i64, Overdrawn> {
        use std::sync::atomic::Ordering;
        let now = self.balance.fetch_sub(amount, Ordering::SeqCst) - amount;
        if now < 0 { Err(Overdrawn) } else { Ok(now) }
    }

    /// The balance.
    #[tool]
    async fn balance(&self) -> i64 {
        self.balance.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Not a tool: no #[tool].
    fn helper(&self) {}

    /// Named like what the macro generates: the generated helpers are not
    /// methods of the type, so nothing clashes.
    fn dispatch(&self) -> u8 {
        7
    }
}

fn main() {
    assert_eq!(Bank::tool_defs().len(), 2);
    let bank = Bank { balance: 5.into() };
    bank.helper();
    assert_eq!(bank.dispatch(), 7);
    // A synchronous tool runs where it may block; an async one does not.
    assert!(bank.is_blocking("withdraw"));
    assert!(!bank.is_blocking("balance"));
    assert!(!bank.is_blocking("helper"));
}
