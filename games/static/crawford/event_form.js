// The director's event form: only the chosen format's settings are shown, switched as the format changes (the page
// renders every format's sections, those of the others hidden; without this script a button shows the new format's
// by posting the form back unsaved). The server reads only the chosen format's fields.
"use strict";
(function () {
  const form = document.getElementById("event-form");
  const format = form && form.querySelector("select[name=format]");
  if (!format) return;
  const show = () => {
    form.querySelectorAll("[data-formats]").forEach((el) => {
      el.hidden = !el.dataset.formats.split(" ").includes(format.value);
    });
  };
  const button = document.getElementById("show-format");
  if (button) button.hidden = true;
  format.addEventListener("change", show);
  show();
})();
