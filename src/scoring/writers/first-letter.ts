/** The case of a sentence's first letter, for sentences the writers put together. */

export const upperFirst = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** Lower-cases the first letter unless the first word looks like a name or an acronym. */
export const lowerFirst = (s: string) =>
  /^\p{Lu}[\p{Ll}\s]/u.test(s) && !/^I\b/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s;
