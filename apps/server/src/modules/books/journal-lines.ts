// The journal lines' check is the domain's (the New journal form runs the same one as the clerk types).
export {
  type Checked,
  type CheckedLine,
  checkLines,
  type LineInput,
  type LineProblem,
} from "@workmetrics/domain/books/journal-lines";
