// Small DOM helpers for every module that writes the page (page/, figures/): finding an element, writing
// text only when it changes, a table row of text cells.
const byId = (id) => document.getElementById(id);

// Writes text only when it differs: rewriting a live region with the same text makes screen readers repeat it.
const setText = (element, text) => { if (element.textContent !== text) element.textContent = text; };

function tableRow(cells) {
  const row = document.createElement('tr');
  for (const text of cells) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  return row;
}

export { byId, setText, tableRow };
