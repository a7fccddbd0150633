(function () {
  var form = document.getElementById("drink-form"), price = document.getElementById("price");
  if (!form || !price) return;
  function update() {
    var size = form.querySelector('input[name="size"]:checked');
    var first = form.querySelector('input[name="size"]');
    var cup = Number((size || first || {dataset: {price: 0}}).dataset.price || 0);
    form.querySelectorAll('input[name="addon"]:checked').forEach(function (box) { cup += Number(box.dataset.price || 0); });
    var cups = Math.max(1, Math.floor(Number(form.elements.cups.value) || 1));
    price.textContent = "$" + cup * cups;
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  update();
})();