/**
 * Stock phrases and their plain replacements, by inflection: a replacement takes the form of
 * the word it replaces ("leveraging" becomes "using", never "use"), so the sentence stays
 * grammatical. '' drops the phrase (the next word is then capitalised if the phrase opened a
 * sentence). Phrases whose plain form would depend on more than their own inflection are not
 * listed: an edit that cannot keep the sentence grammatical is not made.
 */

type Forms = [RegExp, string][];

/** A verb phrase by its four forms: base, third person, past, gerund. */
function verb(
  stem: string,
  tail: string,
  [base, third, past, gerund]: [string, string, string, string],
): Forms {
  const t = tail ? `\\s+${tail}` : '';
  return [
    [new RegExp(`\\b${stem}ing${t}\\b`, 'gi'), gerund],
    [new RegExp(`\\b${stem}ed${t}\\b`, 'gi'), past],
    [new RegExp(`\\b${stem}es${t}\\b`, 'gi'), third],
    [new RegExp(`\\b${stem}e${t}\\b`, 'gi'), base],
  ];
}

export const PLAIN_PHRASES: Forms = [
  [
    /\bin today['’]s (?:fast-paced|digital|rapidly changing|ever-changing) (?:world|age|landscape),?\s*/gi,
    '',
  ],
  [/\bin today['’]s world,?\s*/gi, ''],
  [/\bit['’]s important to note that\s*/gi, ''],
  [/\bit is important to note that\s*/gi, ''],
  [/\bin conclusion,\s*/gi, ''],
  [/\blet['’]s dive in[.!]?\s*/gi, ''],
  ...verb('delv', 'into', ['dig into', 'digs into', 'dug into', 'digging into']),
  // "leverage" is also a noun ("it gives you leverage"): only its verb forms are replaced.
  [/\bleveraging\b/gi, 'using'],
  [/\bleverages (?=the|our|their|your|its|this|these|AI|data)\b/gi, 'uses '],
  [/\b(to|can|could|will|would|should|must) leverage\b/gi, '$1 use'],
  ...verb('utiliz', '', ['use', 'uses', 'used', 'using']),
  ...verb('utilis', '', ['use', 'uses', 'used', 'using']),
  ...verb('revolutioniz', '', ['change', 'changes', 'changed', 'changing']),
  ...verb('revolutionis', '', ['change', 'changes', 'changed', 'changing']),
  ...verb('navigat', 'the complexities of', ['handle', 'handles', 'handled', 'handling']),
  [/\bdiving (?:deep )?into\b/gi, 'looking at'],
  [/\bdives (?:deep )?into\b/gi, 'looks at'],
  [/\bdive (?:deep )?into\b/gi, 'look at'],
  [/\bunlocking the (?:full )?(?:power|potential) of\b/gi, 'using'],
  [/\bunlocks the (?:full )?(?:power|potential) of\b/gi, 'uses'],
  [/\bunlock the (?:full )?(?:power|potential) of\b/gi, 'use'],
  [/\bharnessing the (?:full )?(?:power|potential) of\b/gi, 'using'],
  [/\bharnesses the (?:full )?(?:power|potential) of\b/gi, 'uses'],
  [/\bharness the (?:full )?(?:power|potential) of\b/gi, 'use'],
  [/\ba testament to\b/gi, 'proof of'],
  [/\bgame[- ]changers\b/gi, 'big shifts'],
  [/\bgame[- ]changer\b/gi, 'big shift'],
  [/\bseamlessly\b/gi, 'smoothly'],
];
