import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { accountBalances, accountCreate, accountUpdate } from "./accounts.ts";
import { bankAccountCreate, bankAccountUpdate } from "./bank-accounts.ts";
import { journalGet, journalList, journalPost, journalReverse } from "./journal.ts";
import { openingBalances } from "./opening.ts";
import { booksSettingsGet, booksSettingsSet, yearEndCloseRpc, yearEndReopen } from "./period.ts";

// Issue 12 "Books": manual journals, opening balances, bank accounts, the lock date and the year-end close.
export function registerBooks(): void {
  registerRpc(
    journalPost,
    journalReverse,
    journalGet,
    journalList,
    accountCreate,
    accountUpdate,
    accountBalances,
    bankAccountCreate,
    bankAccountUpdate,
    openingBalances,
    booksSettingsGet,
    booksSettingsSet,
    yearEndCloseRpc,
    yearEndReopen,
  );
}
