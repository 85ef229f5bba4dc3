// Starts the page once every part of the script is read (the parts are served as one file).
setup();
