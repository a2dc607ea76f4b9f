// Progressive enhancement only: every page works without this file.
// Copy buttons ship hidden and appear only when the browser can copy.
(function () {
  'use strict';
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'absolute';
      area.style.left = '-9999px';
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      document.body.removeChild(area);
      if (ok) { resolve(); } else { reject(new Error('copy failed')); }
    });
  }
  var buttons = document.querySelectorAll('button[data-copy-target]');
  Array.prototype.forEach.call(buttons, function (button) {
    var target = document.getElementById(button.getAttribute('data-copy-target'));
    var status = document.getElementById(button.getAttribute('data-copy-status'));
    if (!target) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      copyText(target.textContent.trim()).then(
        function () { if (status) status.textContent = 'Copied to the clipboard.'; },
        function () { if (status) status.textContent = 'Could not copy: select the text and copy it yourself.'; }
      );
    });
  });
})();

// The endpoint form's destination type: only the chosen type's fields show; the others are disabled, so not sent.
(function () {
  'use strict';
  var choices = document.querySelectorAll('select[data-destination-choice]');
  Array.prototype.forEach.call(choices, function (select) {
    var sections = select.form ? select.form.querySelectorAll('fieldset[data-destination]') : [];
    function show() {
      Array.prototype.forEach.call(sections, function (section) {
        var chosen = section.getAttribute('data-destination') === select.value;
        section.hidden = !chosen;
        section.disabled = !chosen;
      });
    }
    select.addEventListener('change', show);
    show();
  });
})();
