// <nw-figure group="lesson1">: figures of one page that share their settings by a name. A change in one
// (the reader's, or a setting attribute the lesson's code changes) is applied to every other figure of
// its group; a figure that joins a group that has settings takes them. Only the figure the reader used
// dispatches nw-change.
const groups = new Map(); // name -> { members: Set of figures, settings: the group's last settings }

// figure joins the group `name` with its own settings; returns the settings it is to show: the group's,
// when the group has some already, else its own (which become the group's).
function joinGroup(figure, name, settings) {
  if (!groups.has(name)) groups.set(name, { members: new Set(), settings });
  const group = groups.get(name);
  group.members.add(figure);
  return group.settings;
}

function leaveGroup(figure, name) {
  const group = groups.get(name);
  if (!group) return;
  group.members.delete(figure);
  if (group.members.size === 0) groups.delete(name);
}

// figure's settings changed: every other member of its group shows them (adoptSettings).
function shareSettings(figure, name, settings) {
  const group = groups.get(name);
  if (!group || !group.members.has(figure)) return;
  group.settings = settings;
  for (const member of group.members) if (member !== figure) member.adoptSettings(settings);
}

export { joinGroup, leaveGroup, shareSettings };
