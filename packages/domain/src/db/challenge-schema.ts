// Tables for team challenges, their participants and targets (issue 12).
export {};
