/** The groups through which a person reaches a lock, in words: "A", "A and B", "A, B and C". */
export function groupNames(via: { groups: readonly { name: string }[] }): string {
  const names = via.groups.map((group) => group.name);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
