(function () {
  var form = document.getElementById("drink-form"), price = document.getElementById("price");
  var was = document.getElementById("price-was"), prices;
  // Every choice's price as the server worked it out (the promotion the counter would give included):
  // {"<size>": {"<add-ons, the form's order>": [one cup, two cups, …]}}, an entry [due, before] when discounted.
  try { prices = JSON.parse(document.currentScript.getAttribute("data-prices")); } catch (e) { return; }
  if (!form || !price || !was || !prices) return;
  function update() {
    var size = form.querySelector('input[name="size"]:checked') || form.querySelector('input[name="size"]');
    var addOns = [];
    form.querySelectorAll('input[name="addon"]:checked').forEach(function (box) { addOns.push(box.value); });
    var cups = Math.max(1, Math.floor(Number(form.elements.cups.value) || 1));
    var row = size && prices[size.value] && prices[size.value][addOns.join(",")];
    var entry = row ? row[cups - 1] : null;
    var due = Array.isArray(entry) ? entry[0] : entry;
    // A choice the shop does not take (too many add-ons, too many cups) has no price: the post says why.
    price.textContent = typeof due === "number" ? "$" + due : "—";
    was.textContent = Array.isArray(entry) ? "$" + entry[1] : "";
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  update();
})();