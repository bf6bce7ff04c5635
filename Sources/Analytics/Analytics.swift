// Analytics
